package model

import (
	"errors"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// TestScanThatFailsSaysSoAndRetries: a step of the scan that fails says
// why; ] then says it again rather than "see every seq alike", and a retry
// scans again, after which ] reaches the difference.
func TestScanThatFailsSaysSoAndRetries(t *testing.T) {
	t.Parallel()
	b := &bucket.Bucket{Cid: "sg_x", Index: 0, DocID: bucket.DocID("sg_x", 0)}
	for i := range b.Slots {
		s := &b.Slots[i]
		s.Seq = int64(i + 1)
		s.Slot = bucket.EmptySlot()
		s.Slot.Msg = &bucket.MsgData{SendID: "ann", Seq: s.Seq, SendTime: 1, Content: "hi", ContentType: 101}
	}
	b.Slots[9].Slot.DelList = []string{"bo"} // seq 10
	c := conv{buckets: map[int64]*bucket.Bucket{0: b}, members: []string{"ann", "bo"},
		windows: map[string]bucket.Window{"ann": {Cid: "sg_x", MinSeq: 1, MaxSeq: 100}, "bo": {Cid: "sg_x", MinSeq: 1, MaxSeq: 100}}}
	m := New(Config{Keep: 2, Batch: 3, Conv: testConv}, "ann", c.windows["ann"], 100)
	settle := func(reads []Read, fail bool) {
		for len(reads) > 0 {
			rd := reads[0]
			reads = reads[1:]
			l := c.serve(rd)
			if rd.Kind == ReadScan {
				l = c.serveScan(rd)
				if fail {
					l = Landed{Read: rd, Err: errors.New("connection reset")}
				}
			}
			reads = append(reads, m.Land(l)...)
		}
	}
	settle(m.Settle(), false)
	settle(m.Press(Key{Kind: CompareOn, View: View{Viewer: "bo"}}), true)
	if n, ok := m.TakeNote(); !ok || n.Kind != NoteScanFailed {
		t.Fatalf("a failed scan step says %+v", n)
	}
	settle(m.Press(Key{Kind: NextDiff}), false)
	if n, ok := m.TakeNote(); !ok || n.Kind != NoteScanFailed {
		t.Fatalf("] after the scan failed says %+v, want why it failed", n)
	}
	settle(m.Retry(), false)
	settle(m.Press(Key{Kind: PrevDiff}), false)
	if m.Cursor() != 10 {
		t.Fatalf("[ after a retry went to %d, want 10", m.Cursor())
	}
}
