package timeline

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
	st, _ := uitest.NewStore(t, false)
	uitest.SeedFar(t, st)
	p := newPage(t, st, "alice", 120, 40)
	p.open(uitest.ChatFar)
	p.jump(uitest.FarSeq)
	p.keys("up") // onto the gap's row: it is read as buckets with nothing stored
	if p.tl.Cursor() != 101 {
		t.Fatalf("up from seq %d: cursor %d, want the gap's row 101", uitest.FarSeq, p.tl.Cursor())
	}
	const seq = uitest.FarSeq - 5 // the bucket just before the far one
	m := uitest.TextMsg("bob", "", "far", bucket.SessionGroup, 1, "stored meanwhile")
	if _, err := st.InsertMessages(t.Context(), uitest.ChatFar, seq, []*bucket.MsgData{m}); err != nil {
		t.Fatal(err)
	}
	p.do(p.tl.Reload()) // R, with nothing failed
	p.jump(uitest.FarSeq)
	p.keys("{") // the message before
	if p.tl.Cursor() != seq || !strings.Contains(uitest.RowOf(p.view(), seq), "stored meanwhile") {
		t.Errorf("after R, { from seq %d: cursor %d, want the message stored at %d:\n%s", uitest.FarSeq, p.tl.Cursor(), seq, p.view())
	}
}
