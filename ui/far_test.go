package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// chatFar holds seqs 1-20 and, ten million buckets later, seqs
// 1,000,000,001-1,000,000,010: a stored bucket at index 10,000,000.
const (
	chatFar = "sg_far"
	farSeq  = 1_000_000_001
)

func seedFar(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	for _, first := range []int64{1, farSeq} {
		var msgs []*bucket.MsgData
		for i := range 10 {
			text := fmt.Sprintf("far note %d", i)
			if first == 1 && i == 4 {
				text = "the needle"
			}
			msgs = append(msgs, textMsg("alice", "", "far", bucket.SessionGroup, i, text))
		}
		if _, err := st.InsertMessages(ctx, chatFar, first, msgs); err != nil {
			t.Fatal(err)
		}
	}
	insertRaw(t, st, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "alice", ConversationID: chatFar, ConversationType: 3, GroupID: "far"})
}

// Search once stepped through every bucket index from the newest down: ten
// million of them here, sixteen per find. It scans the stored ones.
func TestSearchScansOnlyStoredBuckets(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedFar(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatFar)
	before := st.Stats().RoundTrips
	d.keys("/")
	d.typeText("needle")
	d.keys("enter")
	if hits := d.m.tl.search.hits; len(hits) != 1 || hits[0] != 5 {
		t.Errorf("search hits %v, want [5]", hits)
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
	st, _ := newTestStore(t, false)
	seedFar(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatFar)
	if d.m.tl.cursor != farSeq+9 {
		t.Fatalf("opened at seq %d, want %d", d.m.tl.cursor, farSeq+9)
	}
	for range 10 {
		d.keys("up")
	}
	const row = "· seqs 101–1000000000: no message (999,999,900)"
	view := d.m.View()
	// The gap's row is its first seq, as a run of holes' is (it was its
	// last: "1000000000 · seqs 101–…" beside "11 · seqs 11–100").
	if d.m.tl.cursor != 101 || !strings.Contains(view, row) || !strings.Contains(rowOf(view, 101), row) {
		t.Fatalf("after 10 ups the cursor is at %d, want the gap's row 101:\n%s", d.m.tl.cursor, view)
	}
	d.keys("up")
	// The end of bucket 0 is the run of holes 11-100, one row: the cursor
	// rests on its first seq (as the screen always showed it).
	if d.m.tl.cursor != 11 {
		t.Errorf("one up from the gap's row went to %d, want 11 (the row of the holes 11-100 ending bucket 0)", d.m.tl.cursor)
	}
	d.keys("down")
	if d.m.tl.cursor != 101 {
		t.Errorf("one down from the holes' row went to %d, want the gap's row", d.m.tl.cursor)
	}
	if n := d.m.tl.fetched; n > 4 {
		t.Errorf("%d timeline bucket reads to cross the gap", n)
	}
	// From the oldest end, downward: the run of holes 11-100 in bucket 0
	// (one row), the same gap row, then the far bucket.
	d.jump(5)
	for range 6 {
		d.keys("down")
	}
	if d.m.tl.cursor != 11 || !strings.Contains(d.m.View(), "· seqs 11–100: no message (90)") {
		t.Fatalf("cursor at %d, want 11, the row of the holes 11-100:\n%s", d.m.tl.cursor, d.m.View())
	}
	d.keys("down")
	if d.m.tl.cursor != 101 || !strings.Contains(d.m.View(), row) {
		t.Errorf("down from the holes' row went to %d, want the gap's row:\n%s", d.m.tl.cursor, d.m.View())
	}
	d.keys("down")
	if d.m.tl.cursor != farSeq {
		t.Errorf("down from the gap's row went to %d, want %d", d.m.tl.cursor, farSeq)
	}
}

// Reading newer from the oldest end finds the gap above it the same way.
func TestTimelineFindsAGapAboveToo(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedFar(t, st)
	mid := []*bucket.MsgData{textMsg("alice", "", "far", bucket.SessionGroup, 1, "middle")}
	if _, err := st.InsertMessages(context.Background(), chatFar, 500_001, mid); err != nil { // bucket 5000
		t.Fatal(err)
	}
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatFar)
	d.keys(":")
	d.typeText("99")
	d.keys("enter")
	if d.m.tl.cursor != 11 {
		t.Fatalf("a jump to 99 rests at %d, want 11: the run of holes 11-100 is one row", d.m.tl.cursor)
	}
	d.keys("down")
	if d.m.tl.cursor != 101 || !strings.Contains(d.m.View(), "· seqs 101–500000: no message (499,900)") {
		t.Fatalf("down from the holes 11-100 reached %d, want the gap's row 101:\n%s", d.m.tl.cursor, d.m.View())
	}
	d.keys("down")
	if d.m.tl.cursor != 500_001 {
		t.Errorf("down from the gap's row went to %d, want 500001", d.m.tl.cursor)
	}
}
