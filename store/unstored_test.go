package store_test

import (
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// TestCachedMessageMissingFromTheStoreIsMarked: Redis holds new messages
// before MongoDB does (OPENIM.md, Redis; the server writes MSG_CACHE first,
// controller/msg.go BatchInsertChat2Cache): a cached slot over a hole of the
// bucket read from the backend is marked as not stored yet; one over a
// stored message is not; a bucket read from the cache alone says nothing
// either way.
func TestCachedMessageMissingFromTheStoreIsMarked(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "sg_g1", 150, store.Options{Cache: cache})
	cache.slots[5] = &bucket.Slot{Msg: &bucket.MsgData{Content: "newer", Seq: 5, SendTime: 1}}
	cache.slots[151] = &bucket.Slot{Msg: &bucket.MsgData{Content: "only in cache", Seq: 151, SendTime: 1}}
	bs, err := s.Buckets(t.Context(), "sg_g1", []int64{0, 1}, 151)
	if err != nil {
		t.Fatal(err)
	}
	if st := bs[0].Slots[4]; !st.Cached || st.Unstored {
		t.Errorf("seq 5, stored and cached: cached %v, unstored %v; want true, false", st.Cached, st.Unstored)
	}
	if st := bs[1].Slots[50]; !st.Cached || !st.Unstored {
		t.Errorf("seq 151, cached only: cached %v, unstored %v; want true, true", st.Cached, st.Unstored)
	}

	full := newFakeCache()
	s = seeded(t, "sg_g1", 120, store.Options{Cache: full})
	for seq := int64(101); seq <= 120; seq++ {
		full.slots[seq] = &bucket.Slot{Msg: &bucket.MsgData{Seq: seq, SendTime: 1}}
	}
	bs, err = s.Buckets(t.Context(), "sg_g1", []int64{1}, 120)
	if err != nil {
		t.Fatal(err)
	}
	if st := bs[0].Slots[0]; !st.Cached || st.Unstored {
		t.Errorf("seq 101 of a bucket served by the cache alone: unstored %v, want false (the store was not asked)", st.Unstored)
	}
}

// TestNewestBucketKeptByWindowsMarksUnstored: when Redis's max seq sends
// Windows to the stored newest bucket (to check it), NewestBuckets reuses
// that bucket instead of reading it again; a cached message over one of its
// holes is still marked as not stored yet, as Buckets marks it.
func TestNewestBucketKeptByWindowsMarksUnstored(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "sg_g1", 150, store.Options{Cache: cache})
	cache.max["sg_g1"] = 151
	cache.slots[151] = &bucket.Slot{Msg: &bucket.MsgData{Content: "only in cache", Seq: 151, SendTime: 1}}
	ws, err := s.Windows(t.Context(), "u1", []string{"sg_g1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	found, err := s.NewestBuckets(t.Context(), []bucket.Window{*ws["sg_g1"]})
	if err != nil {
		t.Fatal(err)
	}
	b := found["sg_g1"]
	if b == nil || b.Index != 1 {
		t.Fatalf("newest bucket %+v, want bucket 1", b)
	}
	if st := b.Slots[50]; !st.Cached || !st.Unstored {
		t.Errorf("seq 151, cached over a stored hole: cached %v, unstored %v; want true, true", st.Cached, st.Unstored)
	}
}
