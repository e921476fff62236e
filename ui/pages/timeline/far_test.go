package timeline

import (
	"context"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/uitest"
)

// Search once stepped through every bucket index from the newest down: ten
// million of them here, sixteen per find. It scans the stored ones.
func TestSearchScansOnlyStoredBuckets(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedFar(t, st)
	d := newPage(t, st, "alice", 120, 40)
	d.open(uitest.ChatFar)
	before := st.Stats().RoundTrips
	d.do(d.tl.Search().Start("needle"))
	if h, _ := d.tl.tl.Search().Hits(); len(h.Seqs) != 1 || h.Seqs[0] != 5 {
		t.Errorf("search hits %v, want [5]", h.Seqs)
	}
	if trips := st.Stats().RoundTrips - before; trips > 10 {
		t.Errorf("the search took %d round trips", trips)
	}
}

// Between the two buckets lie 9,999,999 with nothing stored: the timeline
// draws them as one row and the cursor crosses them in one step, after one
// look at the doc_id index, instead of a hundred hole rows and a find per
// bucket scrolled through.
func TestTimelineShowsARunWithoutBucketsAsOneRow(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedFar(t, st)
	d := newPage(t, st, "alice", 120, 40)
	d.open(uitest.ChatFar)
	if d.tl.Cursor() != uitest.FarSeq+9 {
		t.Fatalf("opened at seq %d, want %d", d.tl.Cursor(), uitest.FarSeq+9)
	}
	for range 10 {
		d.keys("up")
	}
	const row = "· seqs 101–1000000000: no message (999,999,900)"
	view := d.view()
	// The gap's row is its first seq, as a run of holes' is (it was its
	// last: "1000000000 · seqs 101–…" beside "11 · seqs 11–100").
	if d.tl.Cursor() != 101 || !strings.Contains(view, row) || !strings.Contains(uitest.RowOf(view, 101), row) {
		t.Fatalf("after 10 ups the cursor is at %d, want the gap's row 101:\n%s", d.tl.Cursor(), view)
	}
	d.keys("up")
	// The end of bucket 0 is the run of holes 11-100, one row: the cursor
	// rests on its first seq (as the screen always showed it).
	if d.tl.Cursor() != 11 {
		t.Errorf("one up from the gap's row went to %d, want 11 (the row of the holes 11-100 ending bucket 0)", d.tl.Cursor())
	}
	d.keys("down")
	if d.tl.Cursor() != 101 {
		t.Errorf("one down from the holes' row went to %d, want the gap's row", d.tl.Cursor())
	}
	if n := d.tl.fetched; n > 4 {
		t.Errorf("%d timeline bucket reads to cross the gap", n)
	}
	// From the oldest end, downward: the run of holes 11-100 in bucket 0
	// (one row), the same gap row, then the far bucket.
	d.jump(5)
	for range 6 {
		d.keys("down")
	}
	if d.tl.Cursor() != 11 || !strings.Contains(d.view(), "· seqs 11–100: no message (90)") {
		t.Fatalf("cursor at %d, want 11, the row of the holes 11-100:\n%s", d.tl.Cursor(), d.view())
	}
	d.keys("down")
	if d.tl.Cursor() != 101 || !strings.Contains(d.view(), row) {
		t.Errorf("down from the holes' row went to %d, want the gap's row:\n%s", d.tl.Cursor(), d.view())
	}
	d.keys("down")
	if d.tl.Cursor() != uitest.FarSeq {
		t.Errorf("down from the gap's row went to %d, want %d", d.tl.Cursor(), uitest.FarSeq)
	}
}

// Reading newer from the oldest end finds the gap above it the same way.
func TestTimelineFindsAGapAboveToo(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedFar(t, st)
	mid := []*bucket.MsgData{uitest.TextMsg("alice", "", "far", bucket.SessionGroup, 1, "middle")}
	if _, err := st.InsertMessages(context.Background(), uitest.ChatFar, 500_001, mid); err != nil { // bucket 5000
		t.Fatal(err)
	}
	d := newPage(t, st, "alice", 120, 40)
	d.open(uitest.ChatFar)
	d.do(d.tl.Moves().Jump("99"))
	if d.tl.Cursor() != 11 {
		t.Fatalf("a jump to 99 rests at %d, want 11: the run of holes 11-100 is one row", d.tl.Cursor())
	}
	d.keys("down")
	if d.tl.Cursor() != 101 || !strings.Contains(d.view(), "· seqs 101–500000: no message (499,900)") {
		t.Fatalf("down from the holes 11-100 reached %d, want the gap's row 101:\n%s", d.tl.Cursor(), d.view())
	}
	d.keys("down")
	if d.tl.Cursor() != 500_001 {
		t.Errorf("down from the gap's row went to %d, want 500001", d.tl.Cursor())
	}
}
