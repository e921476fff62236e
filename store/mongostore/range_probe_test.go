package mongostore_test

import (
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// TestFirstRangeOfABucketNotStoredDecidesNothing: a conversation's first
// range read that reaches only buckets not stored (a page before its
// oldest stored bucket) must not settle how ranges are read; the next range,
// over a stored bucket, still reads its messages (on FerretDB v1, which
// refuses the $slice pipeline only once it meets a document, it failed
// with NotImplemented).
func TestFirstRangeOfABucketNotStoredDecidesNothing(t *testing.T) {
	b := fresh(t)
	st := store.New(b, store.Options{})
	ctx := t.Context()
	const cid = "sg_quiet"
	msgs := make([]*bucket.MsgData, 10)
	for i := range msgs {
		msgs[i] = &bucket.MsgData{SendID: "ana", GroupID: "quiet", SessionType: bucket.SessionGroup,
			ContentType: 101, Content: `{"content":"hi"}`, SendTime: 1700000000000 + int64(i)}
	}
	if _, err := st.InsertMessages(ctx, cid, 101, msgs); err != nil {
		t.Fatal(err)
	}
	holes, err := st.Range(ctx, cid, 5, 7, 0)
	if err != nil {
		t.Fatalf("range of a bucket not stored: %v", err)
	}
	for seq, s := range holes {
		if s.Slot != nil && s.Slot.Msg != nil {
			t.Errorf("seq %d of a bucket not stored read as a message", seq)
		}
	}
	got, err := st.Range(ctx, cid, 103, 105, 0)
	if err != nil {
		t.Fatalf("range of a stored bucket after one of a bucket not stored: %v", err)
	}
	for seq := int64(103); seq <= 105; seq++ {
		if s := got[seq].Slot; s == nil || s.Msg == nil || s.Msg.Seq != seq {
			t.Errorf("seq %d read as %+v, not its message", seq, s)
		}
	}
}
