package demo

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
)

// bucketWrites counts, per msg document, the backend calls that write it.
// It serves store.BucketWriter's bucket writes; every other call goes
// to the Backend it wraps.
type bucketWrites struct {
	store.Backend
	writes map[string]int
}

func (b *bucketWrites) InsertBucket(ctx context.Context, doc *bucket.Doc) error {
	b.writes[doc.DocID]++
	return b.Backend.InsertBucket(ctx, doc)
}

func (b *bucketWrites) SetSlotsField(ctx context.Context, docID, field string, sets []store.SlotValue) (bool, error) {
	b.writes[docID]++
	return b.Backend.SetSlotsField(ctx, docID, field, sets)
}

func (b *bucketWrites) SetSlotsFieldIfUnset(ctx context.Context, docID, field string, sets []store.SlotValue) (bool, error) {
	b.writes[docID]++
	return b.Backend.SetSlotsFieldIfUnset(ctx, docID, field, sets)
}

func (b *bucketWrites) AddToDelLists(ctx context.Context, docID string, slots []int, users []string) (int, error) {
	b.writes[docID]++
	return b.Backend.AddToDelLists(ctx, docID, slots, users)
}

// Each bucket of a group (no per-message read flags) is written once, its
// revokes and deletes included: rewriting an 80 KB bucket for every revoke
// and delete was a third of a long seed's time.
func TestSeedWritesEachGroupBucketOnce(t *testing.T) {
	b, err := embedded.Open(filepath.Join(t.TempDir(), "demo.db"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	counted := &bucketWrites{Backend: b, writes: map[string]int{}}
	st := store.New(counted, store.Options{})
	defer st.Close(context.Background())
	sum, err := Seed(context.Background(), st, tiny, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Revoked == 0 || sum.Deleted == 0 {
		t.Fatalf("the dataset should revoke and delete: %v", sum)
	}
	for docID, n := range counted.writes {
		if strings.HasPrefix(docID, "sg_") && n != 1 {
			t.Errorf("bucket %s written %d times, want once", docID, n)
		}
	}
}

// A bucket that exists already (seed --force over empty buckets here) goes
// through the store's state machine, messages first, then each revoke and
// delete; the documents are the ones a seed into an empty store builds
// whole, byte for byte.
func TestSeedBuildsTheBucketsTheStateMachineWrites(t *testing.T) {
	whole, _ := seedInto(t, tiny)
	var docIDs []string
	err := whole.Backend().ScanRaw(context.Background(), bucket.CollMsg, "", func(raw bson.Raw) error {
		docIDs = append(docIDs, raw.Lookup("doc_id").StringValue())
		return nil
	})
	if err != nil || len(docIDs) == 0 {
		t.Fatalf("%d buckets (%v)", len(docIDs), err)
	}
	b, err := embedded.Open(filepath.Join(t.TempDir(), "demo.db"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range docIDs {
		if err := b.InsertBucket(context.Background(), bucket.NewDoc(id)); err != nil {
			t.Fatal(err)
		}
	}
	stepwise := store.New(b, store.Options{})
	defer stepwise.Close(context.Background())
	if _, err := Seed(context.Background(), stepwise, tiny, nil); err != nil {
		t.Fatal(err)
	}
	got, want := dump(t, stepwise), dump(t, whole)
	for _, coll := range bucket.Collections {
		if !slices.EqualFunc(got[coll], want[coll], bytes.Equal) {
			t.Errorf("%s: the state machine's documents differ from the buckets built whole", coll)
		}
	}
}
