package mongostore_test

import (
	"errors"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongotest"
)

// InsertBuckets sends one ordered insert: a bucket stored already stops it
// there, the ones before it are stored and counted, the ones after it are
// not sent, so a seed knows exactly which of its buckets the server holds.
func TestInsertBucketsStopsAtTheFirstRefused(t *testing.T) {
	uri, _ := mongotest.URI(t)
	b := openDB(t, uri) // doc_id unique
	if err := b.InsertBucket(t.Context(), bucket.NewDoc("si_a_b:2")); err != nil {
		t.Fatal(err)
	}
	var docs []*bucket.Doc
	for _, id := range []string{"si_a_b:0", "si_a_b:1", "si_a_b:2", "si_a_b:3"} {
		docs = append(docs, bucket.NewDoc(id))
	}
	before := b.Traffic().Requests
	n, err := b.InsertBuckets(t.Context(), docs)
	if n != 2 || !errors.Is(err, store.ErrDuplicateKey) {
		t.Errorf("InsertBuckets over a stored si_a_b:2: %d inserted, %v; want 2 and a duplicate key", n, err)
	}
	if sent := b.Traffic().Requests - before; sent != 1 {
		t.Errorf("InsertBuckets of 4 buckets sent %d requests; want 1", sent)
	}
	ids, err := b.BucketIDs(t.Context(), "si_a_b")
	if err != nil || len(ids) != 3 {
		t.Errorf("buckets stored: %v (%v); want si_a_b:0, 1 and 2, not 3 (after the refused one)", ids, err)
	}
	if n, err := b.InsertBuckets(t.Context(), docs[3:]); n != 1 || err != nil {
		t.Errorf("InsertBuckets of the rest: %d, %v", n, err)
	}
}
