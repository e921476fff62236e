package demo

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
)

// A seed gathered for a bulk writer stores, document for document, what
// the seed written one write at a time stores: read flags and read seqs
// set in memory as its mark reads set them (the long group, written while
// planned (over windowSize), marked by them), flushes in the middle of conversations
// (a bound of 64 KiB) included; and over buckets that exist already (seed
// --force), through the state machine.
func TestSeedInBulkStoresTheSameDocuments(t *testing.T) {
	opts := Options{Seed: 3, Conversations: 6, Messages: 150, LongMessages: 3000}
	want := dump(t, mustSeed(t, opts))
	bulk := opts
	bulk.BulkBytes = 64 << 10
	st := mustSeed(t, bulk)
	same(t, "bulk", dump(t, st), want)

	var docIDs []string
	if err := st.Backend().ScanRaw(t.Context(), bucket.CollMsg, "", func(raw bson.Raw) error {
		docIDs = append(docIDs, raw.Lookup("doc_id").StringValue())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b, err := embedded.Open(filepath.Join(t.TempDir(), "over.db"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range docIDs[:len(docIDs)/2] { // half of them exist already
		if err := b.InsertBucket(t.Context(), bucket.NewDoc(id)); err != nil {
			t.Fatal(err)
		}
	}
	over := store.New(b, store.Options{})
	defer over.Close(context.Background())
	if _, err := Seed(t.Context(), over, bulk, nil); err != nil {
		t.Fatal(err)
	}
	same(t, "bulk over existing buckets", dump(t, over), want)
}

// On a MongoDB-wire server the bulk seed stores the documents the seed
// one write at a time stores, in over eight times fewer requests.
func TestSeedInBulkOnMongoDB(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds the in-process server twice")
	}
	uri, _ := mongotest.URI(t)
	opts := Options{Seed: 3, Conversations: 10, Messages: 20, LongMessages: -1}
	seed := func(o Options) (map[string][][]byte, int64) {
		b, err := mongostore.Open(t.Context(), uri, mongotest.Database(t, uri), mongostore.Options{OpTimeout: slowServer})
		if err != nil {
			t.Fatal(err)
		}
		st := store.New(b, store.Options{})
		defer st.Close(context.Background())
		before := b.Traffic().Requests
		if _, err := Seed(t.Context(), st, o, nil); err != nil {
			t.Fatal(err)
		}
		return dump(t, st), b.Traffic().Requests - before
	}
	want, each := seed(opts)
	opts.BulkBytes = 4 << 20
	got, bulk := seed(opts)
	same(t, "bulk on MongoDB", got, want)
	t.Logf("%d requests one write at a time, %d in bulk", each, bulk)
	if bulk*8 > each {
		t.Errorf("the bulk seed sent %d requests, the seed one write at a time %d: want eight times fewer", bulk, each)
	}
}

func mustSeed(t *testing.T, opts Options) *store.Store {
	t.Helper()
	st, _ := seedInto(t, opts)
	return st
}

func same(t *testing.T, what string, got, want map[string][][]byte) {
	t.Helper()
	for _, coll := range bucket.Collections {
		if !slices.EqualFunc(got[coll], want[coll], bytes.Equal) {
			t.Errorf("%s: %s differs from the seed written one write at a time (%d documents, want %d)", what, coll, len(got[coll]), len(want[coll]))
		}
	}
}

// slowServer bounds each request to the in-process server, which under
// -race takes seconds over a mark read of a few dozen slots.
const slowServer = 2 * time.Minute
