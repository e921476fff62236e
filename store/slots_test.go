package store_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// readRecorder records which buckets are read whole and which slots are
// read alone.
// It serves store.BucketReader's bucket reads; every other call goes
// to the Backend it wraps.
type readRecorder struct {
	store.Backend
	mu    sync.Mutex
	whole []string // doc_ids asked of FindBuckets
	alone []string // doc_ids asked of FindSlots
}

func (r *readRecorder) FindBuckets(ctx context.Context, ids []string) ([]bson.Raw, error) {
	r.mu.Lock()
	r.whole = append(r.whole, ids...)
	r.mu.Unlock()
	return r.Backend.FindBuckets(ctx, ids)
}

func (r *readRecorder) FindSlots(ctx context.Context, id string, first, n int) (bson.Raw, bool, error) {
	r.mu.Lock()
	r.alone = append(r.alone, id)
	r.mu.Unlock()
	return r.Backend.FindSlots(ctx, id, first, n)
}

func (r *readRecorder) FindSlotRanges(ctx context.Context, ranges []store.SlotRange) ([]store.SlotRead, error) {
	r.mu.Lock()
	for _, sr := range ranges {
		r.alone = append(r.alone, sr.DocID)
	}
	r.mu.Unlock()
	return r.Backend.FindSlotRanges(ctx, ranges)
}

// TestRevokeCheckReadsOnlyTheTargetSlot: checking a revoke of one old
// message reads that message's slot, not its 100-message bucket.
func TestRevokeCheckReadsOnlyTheTargetSlot(t *testing.T) {
	const cid = "sg_g1"
	rec := &readRecorder{Backend: testkit.TempBackend(t)}
	s := store.New(rec, store.Options{})
	if _, err := s.InsertMessages(t.Context(), cid, 1, textMsgs(300)); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckTargets(t.Context(), cid, "m1", []int64{50}, store.ActionRevoke); err != nil {
		t.Fatalf("revoke of seq 50: %v", err)
	}
	if slices.Contains(rec.whole, bucket.DocID(cid, 0)) {
		t.Errorf("the check read bucket 0 whole (%v), want only the slot of seq 50", rec.whole)
	}
	if !slices.Contains(rec.alone, bucket.DocID(cid, 0)) {
		t.Errorf("the check read no slot of bucket 0 (slots read: %v)", rec.alone)
	}
}

// TestSlotsFromTheCache: seqs the cache holds are not read from the store,
// and they come back marked as cached.
func TestSlotsFromTheCache(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "sg_g1", 300, store.Options{Cache: cache})
	cache.slots[50] = &bucket.Slot{Msg: &bucket.MsgData{SendID: "m1", ContentType: 101, Content: `{"content":"newer"}`, Seq: 50, SendTime: 1700000000000}}
	before := s.Stats().RoundTrips
	got, err := s.Slots(t.Context(), "sg_g1", []int64{50}, 300)
	if err != nil {
		t.Fatal(err)
	}
	if trips := s.Stats().RoundTrips - before; trips != 0 {
		t.Errorf("a cached seq cost %d store round trips, want 0", trips)
	}
	if st := got[50]; !st.Cached || st.Slot.Msg.Content != `{"content":"newer"}` {
		t.Errorf("seq 50 = %+v, want the cached message", st)
	}
}

// TestSlotsOverManyBuckets: seqs spread over 20 buckets are read in two
// finds (16 buckets a find), not one find per bucket.
func TestSlotsOverManyBuckets(t *testing.T) {
	s := seeded(t, "sg_g1", 2000, store.Options{})
	var seqs []int64
	for i := int64(0); i < 20; i++ {
		seqs = append(seqs, i*100+7)
	}
	before := s.Stats().RoundTrips
	got, err := s.Slots(t.Context(), "sg_g1", seqs, 2000)
	if err != nil {
		t.Fatal(err)
	}
	if trips := s.Stats().RoundTrips - before; trips != 2 {
		t.Errorf("20 seqs in 20 buckets cost %d round trips, want 2", trips)
	}
	for _, seq := range seqs {
		if st := got[seq]; st.IsHole() || st.Slot.Msg.Seq != seq {
			t.Errorf("seq %d = %+v, want its message", seq, st)
		}
	}
}

// TestSlotsOfTwoBucketsInOneRoundTrip: two quoted seqs in two buckets (a
// quote reaching back a bucket, another three) are read in one round trip,
// each bucket cut to its slot; before, one find per bucket.
func TestSlotsOfTwoBucketsInOneRoundTrip(t *testing.T) {
	s := seeded(t, "sg_g1", 500, store.Options{})
	seqs := []int64{398, 106}
	before := s.Stats().RoundTrips
	got, err := s.Slots(t.Context(), "sg_g1", seqs, 500)
	if err != nil {
		t.Fatal(err)
	}
	if trips := s.Stats().RoundTrips - before; trips != 1 {
		t.Errorf("2 seqs in 2 buckets cost %d round trips, want 1", trips)
	}
	for _, seq := range seqs {
		if st := got[seq]; st.IsHole() || st.Slot.Msg.Seq != seq {
			t.Errorf("seq %d = %+v, want its message", seq, st)
		}
	}
}
