package ui

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// TestHoleRunIsOneRow: seqs 106-109 hold nothing; down from 105 lands on
// their one row, the next down on 110, and up comes back the same way.
func TestHoleRunIsOneRow(t *testing.T) {
	d := searchDriver(t, 105)
	for _, step := range []struct {
		key  string
		want int64
	}{{"j", 106}, {"j", 110}, {"k", 106}, {"k", 105}, {"}", 110}, {"{", 105}} {
		d.keys(step.key)
		if d.m.tl.Cursor() != step.want {
			t.Fatalf("%s: cursor %d, want %d\n%s", step.key, d.m.tl.Cursor(), step.want, d.m.View())
		}
	}
}

// farApart stores a single chat between alice and carol with messages at
// seqs 1 and 1001 only: buckets 1 to 9 were never written.
func farApart(t *testing.T) func(*store.Store) {
	return func(st *store.Store) {
		for _, seq := range []int{1, 1001} {
			m := textMsg("carol", "alice", "", bucket.SessionSingle, seq, "far message")
			if _, err := st.InsertMessages(t.Context(), "si_alice_carol", int64(seq), []*bucket.MsgData{m}); err != nil {
				t.Fatal(err)
			}
		}
		insertRaw(t, st, bucket.CollConversation,
			bucket.Conversation{OwnerUserID: "alice", ConversationID: "si_alice_carol", ConversationType: 1, UserID: "carol"})
	}
}

// TestUpCrossesMissingBuckets: from seq 1001, k reaches the one row of the
// buckets that do not exist and { the message at seq 1, past 999 seqs.
func TestUpCrossesMissingBuckets(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	farApart(t)(st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open("si_alice_carol")
	view := d.m.View()
	if !strings.Contains(view, "· seqs 2–100: no message (99)") || !strings.Contains(view, "· seqs 101–1000: no message (900)") {
		t.Fatalf("the holes of bucket 0 and the buckets never written are not one row each:\n%s", view)
	}
	d.keys("k")
	if d.m.tl.Cursor() != 101 {
		t.Fatalf("k from 1001: cursor %d, want the row of the missing buckets (101, its first seq)\n%s", d.m.tl.Cursor(), d.m.View())
	}
	d.keys("{")
	if d.m.tl.Cursor() != 1 {
		t.Fatalf("{ from the missing buckets: cursor %d, want 1\n%s", d.m.tl.Cursor(), d.m.View())
	}
	d.keys("}")
	if d.m.tl.Cursor() != 1001 {
		t.Errorf("} from 1: cursor %d, want 1001", d.m.tl.Cursor())
	}
}

// TestGoldenHoleRuns: the first screen of a conversation whose only
// messages are seqs 1 and 1001.
func TestGoldenHoleRuns(t *testing.T) {
	s := startScreenWith(t, farApart(t))
	s.keys("/")
	s.typeText("si_alice_carol")
	s.keys("enter", "enter")
	s.waitFor("far message", "no message (99)", "seqs 101–1000: no message (900)")
	s.check()
}

// TestInspectorOnMissingBuckets: i on the row of buckets never written did
// nothing, silently. It now opens the inspector on what is missing.
func TestInspectorOnMissingBuckets(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	farApart(t)(st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open("si_alice_carol")
	d.keys("k", "i")
	if d.m.overlay != ovInspector {
		t.Fatalf("i on the row of the missing buckets opened nothing:\n%s", d.m.View())
	}
	view := d.m.View()
	for _, want := range []string{"seqs        101-1000 (900), no bucket stored", "si_alice_carol:1 to si_alice_carol:9 (9 buckets): no such document"} {
		if !strings.Contains(view, want) {
			t.Errorf("the inspector lacks %q:\n%s", want, view)
		}
	}
}

// TestGoldenInspectorGap: the inspector of the row of buckets never written.
func TestGoldenInspectorGap(t *testing.T) {
	s := startScreenWith(t, farApart(t))
	s.keys("/")
	s.typeText("si_alice_carol")
	s.keys("enter", "enter")
	s.waitFor("far message", "seqs 101–1000: no message (900)")
	s.keys("k", "i")
	s.waitFor("no such document in msg")
	s.check()
}
