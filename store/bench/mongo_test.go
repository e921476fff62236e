package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/mongotest"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// TestMongoCountsFollowFromLayouts runs the bench against FerretDB (or the
// real MongoDB of CHATLENS_TEST_MONGO_URI) on 500 messages: FerretDB scans
// the collection on every read, so it stays small: 500 messages, 10 random
// reads.
func TestMongoCountsFollowFromLayouts(t *testing.T) {
	if testing.Short() {
		t.Skip("FerretDB scans on every read: this run takes about 15 s; skipped with -short")
	}
	uri, real := mongotest.URI(t)
	res := smallRun(t, Target{MongoURI: uri}, Options{Messages: 500, RandomReads: 10})
	checkCounts(t, res, expect{n: 500, random: 10,
		// 351–450 starts inside bucket 3 and ends inside bucket 4.
		range100: counts{1, 2, false}, flat100: counts{1, 100, false},
		// A short conversation reads all of it: 5 buckets; the flat find's
		// first batch holds 101 documents, the rest come by getMore.
		range1000: counts{1, 5, false}, flat1000: counts{2, 500, true}})
	if res.Buckets.Storage.Documents != 5 || res.Flat.Storage.Documents != 500 {
		t.Errorf("collStats documents: %d buckets, %d flat; want 5, 500",
			res.Buckets.Storage.Documents, res.Flat.Storage.Documents)
	}
	if !real {
		assertNoScratchDatabase(t, uri)
	}
	var sb strings.Builder
	_ = res.WriteTable(&sb)
	t.Log("\n" + sb.String())
}

// assertNoScratchDatabase fails when a chatlens_bench_ database is left on
// FerretDB's fresh server after Run (a real MongoDB may be running other
// benches at the same moment, so it is not checked).
func assertNoScratchDatabase(t *testing.T, uri string) {
	t.Helper()
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	names, err := client.ListDatabaseNames(context.Background(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if strings.HasPrefix(n, "chatlens_bench_") {
			t.Errorf("scratch database %s left behind after Run", n)
		}
	}
}

// TestMongoWideBuckets runs the bench-only layout on FerretDB: 500
// messages in buckets of 200 are 3 documents, written by 3 inserts, and
// every scenario reads what it asked for.
func TestMongoWideBuckets(t *testing.T) {
	if testing.Short() {
		t.Skip("FerretDB scans on every read; skipped with -short")
	}
	uri, real := mongotest.URI(t)
	res := smallRun(t, Target{MongoURI: uri}, Options{Messages: 500, RandomReads: 10, BucketSize: 200})
	if res.Buckets.Storage.Documents != 3 || res.Buckets.Write.RoundTrips != 3 {
		t.Errorf("wide buckets: %d documents in %d inserts, want 3 and 3",
			res.Buckets.Storage.Documents, res.Buckets.Write.RoundTrips)
	}
	if !real {
		assertNoScratchDatabase(t, uri)
	}
}
