package mongostore_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestMarkSlotsReadOfSeveralBucketsIsOneCommand: the filtered updates of
// three buckets go out as one ordered update command of four statements,
// each OpenIM's own (mgo/msg.go MarkSingleChatMsgsAsRead: {doc_id,
// msgs.<i>.msg.send_id: {$ne}} → $set msgs.<i>.is_read). A bucket whose
// msgs is no array fails its update and stops the rest: ran counts the
// updates before it, across the buckets, and the bucket after it is left
// alone. (FerretDB v1 applies the updates before the failed one but names
// the failure index 0 wherever it is, so it reports ran 0: ran is checked
// on a real MongoDB only.)
func TestMarkSlotsReadOfSeveralBucketsIsOneCommand(t *testing.T) {
	uri, real := mongotest.URI(t)
	b, rec := openRecorded(t, uri, mongotest.Database(t, uri))
	const cid = "si_a_b"
	testkit.Insert(t, b, bucket.CollMsg, tinyBuckets(cid+":0", cid+":2")...)
	testkit.Insert(t, b, bucket.CollMsg, bson.D{{Key: "doc_id", Value: cid + ":1"}, {Key: "msgs", Value: "not an array"}})
	rec.reset()
	runs := []store.BucketSlots{{DocID: cid + ":0", Slots: []int{0, 1}}, {DocID: cid + ":1", Slots: []int{0}}, {DocID: cid + ":2", Slots: []int{0}}}
	ran, err := b.MarkSlotsRead(t.Context(), runs, "b")
	if err == nil || (real && ran != 2) {
		t.Errorf("mark read stopped by bucket 1: ran %d, %v; want 2 and its error", ran, err)
	}
	updates := rec.named("update")
	if len(updates) != 1 {
		t.Fatalf("%d update commands, want 1", len(updates))
	}
	stmts, _ := updates[0].Lookup("updates").Array().Values()
	if len(stmts) != 4 || !updates[0].Lookup("ordered").Boolean() {
		t.Fatalf("update command %s; want 4 ordered statements", updates[0])
	}
	if q := stmts[3].Document().Lookup("q").Document(); q.Lookup("doc_id").StringValue() != cid+":2" ||
		q.Lookup("msgs.0.msg.send_id", "$ne").StringValue() != "b" {
		t.Errorf("last statement's filter %s; want {doc_id: %s:2, msgs.0.msg.send_id: {$ne: b}}", q, cid)
	}
	raws, err := b.FindBuckets(t.Context(), []string{cid + ":0", cid + ":2"})
	if err != nil || len(raws) != 2 {
		t.Fatalf("read back: %v (%d buckets)", err, len(raws))
	}
	for _, raw := range raws {
		msgs, _ := raw.Lookup("msgs").Array().Values()
		id := raw.Lookup("doc_id").StringValue()
		if want := id == cid+":0"; (len(msgs) == 2) != want {
			t.Errorf("%s after the mark read: msgs %s; want is_read on slots 0 and 1 only of bucket 0", id, raw.Lookup("msgs"))
		}
	}
}
