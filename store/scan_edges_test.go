package store_test

import (
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// scanned is what Scan handed over for a range: the buckets, the gaps.
type scanned struct {
	buckets []*bucket.Bucket
	gaps    [][2]int64
}

func scan(t *testing.T, s *store.Store, w *bucket.Window, from, to int64) scanned {
	t.Helper()
	var out scanned
	err := s.Scan(t.Context(), w, from, to, func(batch []*bucket.Bucket) error {
		out.buckets = append(out.buckets, batch...)
		return nil
	}, func(from, to int64) error {
		out.gaps = append(out.gaps, [2]int64{from, to})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestScanEdgeOfABrokenBucketIsNoGap: a stored bucket whose msgs is missing
// holds no slot, yet it is stored: a range with an edge inside it reads it
// cut and still hands it over with its problem, not as seqs nothing stores.
func TestScanEdgeOfABrokenBucketIsNoGap(t *testing.T) {
	b := testkit.TempBackend(t)
	doc, err := bson.Marshal(bson.D{{Key: "doc_id", Value: "sg_broken:0"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.InsertRaw(t.Context(), bucket.CollMsg, []bson.Raw{doc}, store.RawInsert); err != nil {
		t.Fatal(err)
	}
	got := scan(t, store.New(b, store.Options{}), &bucket.Window{Cid: "sg_broken", MaxSeq: 100}, 10, 40)
	if len(got.gaps) != 0 || len(got.buckets) != 1 || !slices.Contains(got.buckets[0].Problems, "msgs is missing") {
		t.Fatalf("seqs 10-40 of a bucket without msgs: gaps %v, buckets %d (problems %v); want no gap, the bucket and its problem",
			got.gaps, len(got.buckets), problemsOf(got.buckets))
	}
}

// TestScanEdgeOfACachedBucket: Redis may hold seqs of a bucket MongoDB has
// not stored yet. A range whose edge cuts that bucket is handed over as
// the bucket (not a gap) when the cache holds any of its seqs, as when it
// was read whole, and the cached seq below the range is at hand for a quote.
func TestScanEdgeOfACachedBucket(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "sg_g1", 100, store.Options{Cache: cache})
	cache.slots[105] = &bucket.Slot{Msg: &bucket.MsgData{Content: "only in cache", Seq: 105, SendTime: 1}}
	w := &bucket.Window{Cid: "sg_g1", MaxSeq: 150}
	got := scan(t, s, w, 120, 140)
	if len(got.gaps) != 0 || len(got.buckets) != 1 {
		t.Fatalf("seqs 120-140 of a bucket only cached below them: gaps %v, %d buckets; want no gap, the bucket", got.gaps, len(got.buckets))
	}
	if st, ok := bucket.LookupIn(got.buckets, nil)(105); !ok || !st.Cached || st.Slot.Msg.Content != "only in cache" {
		t.Errorf("seq 105, cached, looked up in the bucket read for 120-140: %+v, %v", st, ok)
	}

	// Stored, read cut: the cached seq below the range is at hand, the
	// others below it are not (a quote of one reads it).
	s = seeded(t, "sg_g1", 150, store.Options{Cache: cache})
	got = scan(t, s, w, 120, 140)
	if len(got.gaps) != 0 || len(got.buckets) != 1 || !got.buckets[0].IsCut() {
		t.Fatalf("seqs 120-140 of a stored bucket: gaps %v, %d buckets; want no gap, the bucket read cut", got.gaps, len(got.buckets))
	}
	lookup := bucket.LookupIn(got.buckets, nil)
	if st, ok := lookup(105); !ok || !st.Cached || st.Unstored || st.Slot.Msg.Content != "only in cache" {
		t.Errorf("seq 105, stored and cached, looked up in the bucket read cut for 120-140: %+v, %v", st, ok)
	}
	if st, ok := lookup(110); ok {
		t.Errorf("seq 110, not read, looked up in the bucket read cut for 120-140: at hand as %+v", st)
	}
	if st, ok := lookup(130); !ok || st.IsHole() {
		t.Errorf("seq 130, read: %+v, %v", st, ok)
	}
}

func problemsOf(bs []*bucket.Bucket) [][]string {
	var out [][]string
	for _, b := range bs {
		out = append(out, b.Problems)
	}
	return out
}
