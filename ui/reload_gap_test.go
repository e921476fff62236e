package ui

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/uitest"
)

// TestReloadReadsABucketStoredIntoAGap: the row of buckets with nothing
// stored is known without their slots; a message another process stores
// into the gap shows after R, which forgets what was read and reads the
// screen again (before, R re-read only the buckets held, and the gap row
// stayed).
func TestReloadReadsABucketStoredIntoAGap(t *testing.T) {
	st, _ := newTestStore(t, false)
	uitest.SeedFar(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(uitest.ChatFar)
	d.jump(uitest.FarSeq)
	d.keys("up") // onto the gap's row: it is read as buckets with nothing stored
	if d.m.tl.Cursor() != 101 {
		t.Fatalf("up from seq %d: cursor %d, want the gap's row 101", uitest.FarSeq, d.m.tl.Cursor())
	}
	const seq = uitest.FarSeq - 5 // the bucket just before the far one
	m := uitest.TextMsg("bob", "", "far", bucket.SessionGroup, 1, "stored meanwhile")
	if _, err := st.InsertMessages(t.Context(), uitest.ChatFar, seq, []*bucket.MsgData{m}); err != nil {
		t.Fatal(err)
	}
	d.keys("R")
	d.jump(uitest.FarSeq)
	d.keys("{") // the message before
	if d.m.tl.Cursor() != seq || !strings.Contains(uitest.RowOf(d.m.View(), seq), "stored meanwhile") {
		t.Errorf("after R, { from seq %d: cursor %d, want the message stored at %d:\n%s", uitest.FarSeq, d.m.tl.Cursor(), seq, d.m.View())
	}
}
