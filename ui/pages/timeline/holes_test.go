package timeline

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/ui/uitest"
)

// smallAt is alice's chat with bob (uitest.SeedSmall) open on a 120x40
// screen, the cursor on seq at.
func smallAt(t *testing.T, at int64) *page {
	t.Helper()
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	p := newPage(t, st, "alice", 120, 40)
	p.open(uitest.ChatAB)
	p.jump(at)
	return p
}

// TestHoleRunIsOneRow: seqs 106-109 hold nothing; down from 105 lands on
// their one row, the next down on 110, and up comes back the same way.
func TestHoleRunIsOneRow(t *testing.T) {
	p := smallAt(t, 105)
	for _, step := range []struct {
		key  string
		want int64
	}{{"j", 106}, {"j", 110}, {"k", 106}, {"k", 105}, {"}", 110}, {"{", 105}} {
		p.keys(step.key)
		if p.tl.Cursor() != step.want {
			t.Fatalf("%s: cursor %d, want %d\n%s", step.key, p.tl.Cursor(), step.want, p.view())
		}
	}
}

// farApartPage is alice's chat with carol (uitest.SeedFarApart: seqs 1 and
// 1001 only) open on a 120x40 screen.
func farApartPage(t *testing.T) *page {
	t.Helper()
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	uitest.SeedFarApart(t, st)
	p := newPage(t, st, "alice", 120, 40)
	p.open(uitest.ChatQ)
	return p
}

// TestUpCrossesMissingBuckets: from seq 1001, k reaches the one row of the
// buckets that do not exist and { the message at seq 1, past 999 seqs.
func TestUpCrossesMissingBuckets(t *testing.T) {
	p := farApartPage(t)
	view := p.view()
	if !strings.Contains(view, "· seqs 2–100: no message (99)") || !strings.Contains(view, "· seqs 101–1000: no message (900)") {
		t.Fatalf("the holes of bucket 0 and the buckets never written are not one row each:\n%s", view)
	}
	p.keys("k")
	if p.tl.Cursor() != 101 {
		t.Fatalf("k from 1001: cursor %d, want the row of the missing buckets (101, its first seq)\n%s", p.tl.Cursor(), p.view())
	}
	p.keys("{")
	if p.tl.Cursor() != 1 {
		t.Fatalf("{ from the missing buckets: cursor %d, want 1\n%s", p.tl.Cursor(), p.view())
	}
	p.keys("}")
	if p.tl.Cursor() != 1001 {
		t.Errorf("} from 1: cursor %d, want 1001", p.tl.Cursor())
	}
}

// TestInspectorOnMissingBuckets: i on the row of buckets never written did
// nothing, silently. It now opens the inspector on what is missing.
func TestInspectorOnMissingBuckets(t *testing.T) {
	p := farApartPage(t)
	p.keys("k")
	lines := p.inspect()
	for _, want := range []string{"seqs        101-1000 (900), no bucket stored", "si_alice_carol:1 to si_alice_carol:9 (9 buckets): no such document"} {
		if !strings.Contains(lines, want) {
			t.Errorf("the inspector lacks %q:\n%s", want, lines)
		}
	}
}
