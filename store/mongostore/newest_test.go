package mongostore_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestNewestSlotsCutBesideMalformedBuckets: one FindNewestSlots over a
// bucket whose msgs is a document, one whose msgs is short and a good one
// answers, the good one cut to its last touched slot where the server has
// the operators (a real engine: DocumentDB evaluates both branches of a
// $cond, so a guard that only chooses a branch fails the whole command),
// the others whole; and the server is not written off as one that cannot
// cut.
func TestNewestSlotsCutBesideMalformedBuckets(t *testing.T) {
	uri, real := mongotest.URI(t)
	b := openDB(t, uri)
	good := bucket.NewDoc("sg_good:0")
	for i := range 7 {
		good.Msgs[i].Msg = &bucket.MsgData{SendID: "u1", Seq: int64(i + 1), SendTime: 1700000000000, ContentType: 101, Content: "{}"}
	}
	if err := b.InsertBucket(t.Context(), good); err != nil {
		t.Fatal(err)
	}
	testkit.Insert(t, b, bucket.CollMsg,
		bson.D{{Key: "doc_id", Value: "sg_object:0"}, {Key: "msgs", Value: bson.D{{Key: "0", Value: 1}}}},
		bson.D{{Key: "doc_id", Value: "sg_short:0"}, {Key: "msgs", Value: bson.A{bucket.UntouchedSlot()}}})
	ids := []string{"sg_object:0", "sg_good:0", "sg_short:0", "sg_none:0"}
	reads, err := b.FindNewestSlots(t.Context(), ids)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		stored, cut bool
		at          int
	}{{true, false, 0}, {true, real, 6}, {true, false, 0}, {false, false, 0}} {
		r := reads[i]
		if (r.Raw != nil) != want.stored || r.Cut != want.cut || r.Cut && r.At != want.at {
			t.Errorf("%s: stored %v cut %v at %d; want stored %v cut %v at %d", ids[i], r.Raw != nil, r.Cut, r.At, want.stored, want.cut, want.at)
		}
		if r.Raw != nil && !r.Cut && r.Raw.Lookup("msgs").IsZero() {
			t.Errorf("%s read whole without its msgs", ids[i])
		}
	}
	if real {
		if reads, err = b.FindNewestSlots(t.Context(), ids[1:2]); err != nil || !reads[0].Cut {
			t.Errorf("after malformed buckets, a good one is read whole (%v): the server was written off", err)
		}
	}
}
