package store_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// fakeCache is an in-memory Cache that can be made to fail.
type fakeCache struct {
	mu          sync.Mutex
	slots       map[int64]*bucket.Slot // by seq, any conversation
	max         map[string]int64
	read        map[string]int64 // by cid/uid
	invalidated []int64
	fail        error
}

func newFakeCache() *fakeCache {
	return &fakeCache{slots: map[int64]*bucket.Slot{}, max: map[string]int64{}, read: map[string]int64{}}
}

func (c *fakeCache) Slots(_ context.Context, _ string, seqs []int64) (map[int64]*bucket.Slot, error) {
	if c.fail != nil {
		return nil, c.fail
	}
	out := map[int64]*bucket.Slot{}
	for _, s := range seqs {
		if v := c.slots[s]; v != nil {
			out[s] = v
		}
	}
	return out, nil
}

func (c *fakeCache) Invalidate(_ context.Context, _ string, seqs []int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.invalidated = append(c.invalidated, seqs...)
	return c.fail
}

func (c *fakeCache) MaxSeqs(_ context.Context, cids []string) (map[string]int64, error) {
	return c.known(c.max, cids, func(cid string) string { return cid })
}

func (c *fakeCache) ReadSeqs(_ context.Context, uid string, cids []string) (map[string]int64, error) {
	return c.known(c.read, cids, func(cid string) string { return cid + "/" + uid })
}

func (c *fakeCache) ReadSeqsOf(_ context.Context, cid string, uids []string) (map[string]int64, error) {
	return c.known(c.read, uids, func(uid string) string { return cid + "/" + uid })
}

func (c *fakeCache) known(m map[string]int64, cids []string, key func(string) string) (map[string]int64, error) {
	if c.fail != nil {
		return nil, c.fail
	}
	out := map[string]int64{}
	for _, cid := range cids {
		if v, ok := m[key(cid)]; ok {
			out[cid] = v
		}
	}
	return out, nil
}

func (c *fakeCache) RaiseReadSeq(_ context.Context, cid, uid string, seq int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail != nil {
		return c.fail
	}
	c.read[cid+"/"+uid] = max(c.read[cid+"/"+uid], seq)
	return nil
}

func (c *fakeCache) Describe() string { return "fake cache" }
func (c *fakeCache) Close() error     { return nil }

// seeded is a Store whose backend holds seqs 1..n of cid.
func seeded(t *testing.T, cid string, n int, opts store.Options) *store.Store {
	t.Helper()
	b := testkit.TempBackend(t)
	if _, err := store.New(b, store.Options{}).InsertMessages(t.Context(), cid, 1, textMsgs(n)); err != nil {
		t.Fatal(err)
	}
	return store.New(b, opts)
}

func TestBucketsPreferTheCache(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "sg_g1", 150, store.Options{Cache: cache})
	// Redis holds new messages before MongoDB: seq 151 and a newer seq 5.
	cache.slots[5] = &bucket.Slot{Msg: &bucket.MsgData{Content: "from cache", Seq: 5, SendTime: 1}}
	cache.slots[151] = &bucket.Slot{Msg: &bucket.MsgData{Content: "only in cache", Seq: 151, SendTime: 1}}
	bs, err := s.Buckets(t.Context(), "sg_g1", []int64{0, 1}, 151)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		seq     int64
		content string
		cached  bool
	}{{5, "from cache", true}, {6, `{"content":"hi"}`, false}, {151, "only in cache", true}, {150, `{"content":"hi"}`, false}} {
		st := bs[bucket.BucketIndex(c.seq)].Slots[bucket.SlotIndex(c.seq)]
		if st.Slot == nil || st.Slot.Msg == nil || st.Slot.Msg.Content != c.content || st.Cached != c.cached {
			t.Errorf("seq %d = %+v, want %q (cached %v)", c.seq, st, c.content, c.cached)
		}
	}
	if st := s.Stats(); st.CacheHits != 2 || st.CacheMisses != 149 {
		t.Errorf("cache hits/misses = %d/%d, want 2/149", st.CacheHits, st.CacheMisses)
	}
}

func TestFullyCachedBucketNeedsNoBackendRead(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "sg_g1", 120, store.Options{Cache: cache})
	for seq := int64(101); seq <= 120; seq++ {
		cache.slots[seq] = &bucket.Slot{Msg: &bucket.MsgData{Seq: seq, SendTime: 1}}
	}
	if _, err := s.Buckets(t.Context(), "sg_g1", []int64{1}, 120); err != nil {
		t.Fatal(err)
	}
	if got := s.Stats().RoundTrips; got != 0 {
		t.Errorf("a bucket whose visible seqs are all cached cost %d backend round trips, want 0", got)
	}
}

func TestCacheFailureFallsBackToTheBackend(t *testing.T) {
	cache := newFakeCache()
	cache.fail = errors.New("redis down")
	s := seeded(t, "sg_g1", 10, store.Options{Cache: cache})
	bs, err := s.Buckets(t.Context(), "sg_g1", []int64{0}, 10)
	if err != nil {
		t.Fatalf("read with the cache down: %v", err)
	}
	if bs[0].Slots[9].IsHole() {
		t.Errorf("seq 10 not read from the backend")
	}
	ws, err := s.Windows(t.Context(), "m1", []string{"sg_g1"}, nil)
	if err != nil || ws["sg_g1"].MaxSeq != 10 {
		t.Errorf("window with the cache down = %+v, %v; want max seq 10 from the backend", ws["sg_g1"], err)
	}
	if s.Stats().CacheError == nil {
		t.Errorf("the cache failure is not reported in Stats")
	}
}

func TestWindowsTrustTheCacheForNewerSeqs(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "sg_g1", 10, store.Options{Cache: cache})
	cache.max["sg_g1"] = 12 // Redis knows messages MongoDB has not got yet
	cache.read["sg_g1/m1"] = 9
	ws, err := s.Windows(t.Context(), "m1", []string{"sg_g1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := ws["sg_g1"]; w.MaxSeq != 12 || w.ReadSeq != 9 || w.Unread() != 3 || w.Last != nil {
		t.Errorf("window = %+v, want max 12 read 9 unread 3 and no bucket read", w)
	}
}

func TestBucketsAreReadInBatches(t *testing.T) {
	s := seeded(t, "sg_g1", 4000, store.Options{})
	start := s.Stats().RoundTrips
	idx := make([]int64, 40)
	for i := range idx {
		idx[i] = int64(i)
	}
	bs, err := s.Buckets(t.Context(), "sg_g1", idx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Stats().RoundTrips - start; got != 3 {
		t.Errorf("40 buckets took %d finds, want 3 (batches of %d)", got, s.FindBatch)
	}
	for i, b := range bs {
		if b.Index != int64(i) || b.Slots[0].IsHole() {
			t.Errorf("bucket %d read as index %d (hole %v)", i, b.Index, b.Slots[0].IsHole())
		}
	}
}

func TestMembersOfASingleChatWithoutDocuments(t *testing.T) {
	s := store.New(testkit.TempBackend(t), store.Options{})
	members, err := s.Members(t.Context(), "si_alice_bob")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range members {
		ids = append(ids, m.UserID)
	}
	if !slices.Equal(ids, []string{"alice", "bob"}) {
		t.Errorf("members = %q, want the two users of the conversation ID", ids)
	}
}
