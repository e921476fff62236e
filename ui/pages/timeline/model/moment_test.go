package model

import (
	"testing"
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
)

// momentConv is a group of 100 messages of ann's, each sent at the ms of
// its seq; seq 10 revoked at 50, seq 20 deleted for ann at 60 (a dated
// 2102), seq 30 deleted for ann with no date. Its moments are read back
// with that evidence.
func momentConv() (conv, func(Read) Landed) {
	b := &bucket.Bucket{Cid: "sg_x", Index: 0, DocID: bucket.DocID("sg_x", 0)}
	for i := range b.Slots {
		s := &b.Slots[i]
		s.Seq = int64(i + 1)
		s.Slot = bucket.EmptySlot()
		s.Slot.Msg = &bucket.MsgData{SendID: "ann", Seq: s.Seq, SendTime: s.Seq, Content: "hi", ContentType: 101, SessionType: bucket.SessionGroup}
	}
	b.Slots[9].Slot.Revoke = &bucket.Revoke{UserID: "ann", Role: 100, Time: 50}
	b.Slots[19].Slot.DelList = []string{"ann"}
	b.Slots[29].Slot.DelList = []string{"ann"}
	w := bucket.Window{Cid: "sg_x", MinSeq: 1, MaxSeq: 100, ReadSeq: 100}
	c := conv{buckets: map[int64]*bucket.Bucket{0: b}, members: []string{"ann", "bo"},
		windows: map[string]bucket.Window{"ann": w, "bo": w}}
	evidence := []bucket.Evidence{{Kind: bucket.EvidenceDelete, At: 60, User: "ann", Seqs: []int64{20}, Source: "2102"}}
	serve := func(rd Read) Landed {
		switch rd.Kind {
		case ReadScan:
			return c.serveScan(rd)
		case ReadMoment:
			h := bucket.History{Viewer: rd.Viewer, Cid: "sg_x", Owned: true, Evidence: evidence}
			t := projection.NewThenTally(projection.AsOf{At: rd.At, Viewer: rd.Viewer, Conv: testConv, H: h}, c.windows[rd.Viewer])
			for _, st := range b.Slots {
				t.Add(st)
			}
			return Landed{Read: rd, Then: t.Then()}
		}
		return c.serve(rd)
	}
	return c, serve
}

func settleWith(m *Model, serve func(Read) Landed, reads []Read) {
	for len(reads) > 0 {
		rd := reads[0]
		reads = append(reads[1:], m.Land(serve(rd))...)
	}
}

// A moment is a key of the queue: the keys after it move in the window
// then (its end is the last message sent by then); a viewer switched to
// is seen at the same moment; 0 is now again.
func TestMomentKeysMoveInTheWindowThen(t *testing.T) {
	t.Parallel()
	c, serve := momentConv()
	m := New(Config{Keep: 2, Batch: 3, Conv: testConv}, "ann", c.windows["ann"], 100)
	settleWith(m, serve, m.Settle())
	m.Hold()
	m.Press(Key{Kind: AtMoment, At: 40})
	m.Press(Key{Kind: Bottom})
	settleWith(m, serve, m.Release())
	if m.Moment().At() != 40 || m.Cursor() != 40 || m.Window().MaxSeq != 40 {
		t.Fatalf("at 40, G: at %d, cursor %d, window ends %d; want the cursor on seq 40, the last sent by then", m.Moment().At(), m.Cursor(), m.Window().MaxSeq)
	}
	then, _ := m.Moment().Then()
	if msg, unknown := then.View(c.buckets[0].Slots[9], "", nil); msg.Revoked || unknown != nil {
		t.Errorf("seq 10 at 40: revoked %v, unknown %q; want as sent (revoked at 50)", msg.Revoked, unknown)
	}
	if _, unknown := then.View(c.buckets[0].Slots[29], "", nil); len(unknown) != 1 {
		t.Errorf("seq 30 at 40: unknown %q; want its undated delete said", unknown)
	}
	settleWith(m, serve, m.Press(Key{Kind: ViewAs, Viewer: "bo"}))
	if m.Viewer() != "bo" || m.Moment().At() != 40 || m.Window().MaxSeq != 40 {
		t.Fatalf("V to bo: %s at %d, window ends %d; want bo at 40", m.Viewer(), m.Moment().At(), m.Window().MaxSeq)
	}
	settleWith(m, serve, m.Press(Key{Kind: AtMoment}))
	settleWith(m, serve, m.Press(Key{Kind: Bottom}))
	if m.Moment().At() != 0 || m.Cursor() != 100 {
		t.Fatalf("back to now, G: at %d, cursor %d; want now, seq 100", m.Moment().At(), m.Cursor())
	}
}

// Compare's second side can be the viewer at another moment: what changed
// for ann between 40 and 70 are the rows that differ, each with its
// reason, and the messages sent in between, outside the earlier window.
func TestCompareAcrossMomentsFindsWhatChanged(t *testing.T) {
	t.Parallel()
	_, serve := momentConv()
	c, _ := momentConv()
	m := New(Config{Keep: 2, Batch: 3, Conv: testConv}, "ann", c.windows["ann"], 100)
	settleWith(m, serve, m.Settle())
	settleWith(m, serve, m.Press(Key{Kind: AtMoment, At: 70}))
	settleWith(m, serve, m.Press(Key{Kind: CompareOn, View: View{Viewer: "ann", At: time.UnixMilli(40)}}))
	if !m.Compare().On() || m.Compare().Scanning() {
		t.Fatalf("compare on %v, scanning %v", m.Compare().On(), m.Compare().Scanning())
	}
	type run struct {
		from, to int64
		reason   string
	}
	var got []run
	for _, r := range m.Compare().Runs() {
		got = append(got, run{r.From, r.To, r.Reason})
	}
	want := []run{{10, 10, projection.ReasonRevoked}, {20, 20, projection.ReasonDeletedA}, {41, 70, projection.ReasonOutsideB}}
	if len(got) != len(want) {
		t.Fatalf("runs %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("runs %v, want %v", got, want)
		}
	}
	settleWith(m, serve, m.Press(Key{Kind: Top}))
	settleWith(m, serve, m.Press(Key{Kind: NextDiff}))
	if m.Cursor() != 10 {
		t.Errorf("] from the top went to %d, want 10", m.Cursor())
	}
	// The same viewer at the same moment is no second side.
	settleWith(m, serve, m.Press(Key{Kind: CompareOn, View: View{Viewer: "ann", At: time.UnixMilli(70)}}))
	if m.Compare().On() {
		t.Errorf("comparing ann at 70 with ann at 70 is on")
	}
}
