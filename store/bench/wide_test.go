package bench

import (
	"bytes"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// TestWideBucketsRunEveryScenario runs the bench at a bucket size of 1,000
// on the embedded scratch store: every scenario reads what it asked for
// (Run refuses a count that differs), 2,345 messages take ceil(2345/1000)
// = 3 documents, and the output says the bench-only layout was used.
func TestWideBucketsRunEveryScenario(t *testing.T) {
	res := smallRun(t, Target{TempDir: t.TempDir(), NoSync: true},
		Options{Messages: 2345, Seed: 3, RandomReads: 50, BucketSize: 1000})
	b := res.Buckets
	if b.Storage.Documents != 3 {
		t.Errorf("documents = %d, want 3 (2,345 messages in buckets of 1,000)", b.Storage.Documents)
	}
	if b.Write.RoundTrips != 3 {
		t.Errorf("write round trips = %d, want 3: one insert per whole bucket", b.Write.RoundTrips)
	}
	// A single read is one document; the full scroll is one per bucket.
	if b.Reads.RandomSingle.RoundTrips != 50 || b.Reads.RandomSingle.Documents != 50 {
		t.Errorf("random single reads: %+v, want 50 round trips of one document", b.Reads.RandomSingle)
	}
	if b.Reads.FullScroll.RoundTrips != 3 {
		t.Errorf("full scroll round trips = %d, want 3", b.Reads.FullScroll.RoundTrips)
	}
	if big := b.Storage.LargestDocument; big == nil || *big <= 0 || *big > mongoDocLimit {
		t.Errorf("largest document = %v, want a size under 16 MiB", big)
	}
	if res.BucketSize != 1000 || !strings.Contains(res.BucketLayout, "bench-only") {
		t.Errorf("result names bucket size %d, layout %q; want 1000 and the bench-only layout", res.BucketSize, res.BucketLayout)
	}
	var out bytes.Buffer
	if err := res.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "bucket size 1000: bench-only") {
		t.Errorf("table does not name the bucket size and layout:\n%s", out.String())
	}
}

// TestBucketSizeBound refuses a bucket size whose documents could pass
// MongoDB's 16 MiB with the generator's largest messages, and accepts the
// sizes OpenIM's sources carry (100 and 5,000).
func TestBucketSizeBound(t *testing.T) {
	limit := MaxBucketSize()
	if limit < 5000 {
		t.Fatalf("MaxBucketSize() = %d, want room for 5,000", limit)
	}
	doc := newWideLayout(nil, DefaultConversation, limit, int64(limit))
	msgs := make([]*bucket.MsgData, limit)
	for i := range msgs {
		msgs[i] = largestMessage()
	}
	full := &bucket.Doc{DocID: doc.docID(0), Msgs: make([]*bucket.Slot, limit)}
	for i, m := range msgs {
		full.Msgs[i] = &bucket.Slot{Msg: m, DelList: []string{}}
	}
	raw, err := bson.Marshal(full)
	if err != nil || len(raw) > mongoDocLimit {
		t.Errorf("a bucket of %d largest messages is %d bytes (%v), over MongoDB's 16 MiB", limit, len(raw), err)
	}
	for _, size := range []int{-1, limit + 1} {
		if _, err := (Options{BucketSize: size}).withDefaults(); err == nil {
			t.Errorf("bucket size %d accepted", size)
		}
	}
	for _, size := range []int{1, 100, 5000, limit} {
		if _, err := (Options{BucketSize: size}).withDefaults(); err != nil {
			t.Errorf("bucket size %d: %v", size, err)
		}
	}
}
