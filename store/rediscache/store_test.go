package rediscache

import (
	"context"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// openStore is a Store over backend with a cache on addr.
func openStore(t *testing.T, backend store.Backend, addr string) *store.Store {
	t.Helper()
	return store.New(backend, store.Options{Cache: openCache(t, addr)})
}

func insert(t *testing.T, s *store.Store, cid string, first int64, n int) {
	t.Helper()
	msgs := make([]*bucket.MsgData, n)
	for i := range msgs {
		msgs[i] = textMsg(first+int64(i), "u1", "original")
	}
	if _, err := s.InsertMessages(context.Background(), cid, first, msgs); err != nil {
		t.Fatal(err)
	}
}

func slotOf(t *testing.T, s *store.Store, cid string, seq, maxSeq int64) bucket.StoredSlot {
	t.Helper()
	bs, err := s.Buckets(context.Background(), cid, []int64{bucket.BucketIndex(seq)}, maxSeq)
	if err != nil {
		t.Fatal(err)
	}
	return bs[0].Slots[bucket.SlotIndex(seq)]
}

// An operator revokes through chatlens while another reader (a second
// client following the server's rule: a locked key is a miss) had the message
// cached. That reader must never get the old content again.
func TestRevokeIsNeverServedStale(t *testing.T) {
	srv := newServer(t)
	backend := testkit.TempBackend(t)
	operator, reader := openStore(t, backend, srv.addr), openStore(t, backend, srv.addr)
	cid := srv.newCid(t)
	insert(t, operator, cid, 1, 3)
	srv.cacheSlot(t, cid, 2, textSlot(2, "original")) // the server re-caches it
	if got := slotOf(t, reader, cid, 2, 3); !got.Cached || got.Slot.Revoke != nil {
		t.Fatalf("before the revoke the reader should hit the cache: %+v", got)
	}

	res, err := operator.Revoke(context.Background(), cid, []int64{2}, bucket.Revoke{Role: 60, UserID: "admin"})
	if err != nil || res.StaleCache != nil {
		t.Fatalf("Revoke: %v, stale cache: %v", err, res.StaleCache)
	}
	got := slotOf(t, reader, cid, 2, 3)
	if got.Cached || got.Slot == nil || got.Slot.Revoke == nil || got.Slot.Revoke.UserID != "admin" {
		t.Errorf("after the revoke the reader got %+v (cached=%v), want the revoked slot from the backend", got.Slot, got.Cached)
	}
	if old := srv.raw.HGet(context.Background(), MsgCacheKey(cid, 2), fieldValue).Val(); !strings.Contains(old, "original") {
		t.Errorf("expected the old value to stay behind the lock (tag, not DEL); value = %q", old)
	}
}

func TestDeleteAndMarkReadInvalidate(t *testing.T) {
	srv := newServer(t)
	s := openStore(t, testkit.TempBackend(t), srv.addr)
	cid := srv.newCid(t)
	ctx := context.Background()
	insert(t, s, cid, 1, 5)
	for seq := int64(1); seq <= 5; seq++ {
		srv.cacheSlot(t, cid, seq, textSlot(seq, "original"))
	}
	srv.raw.HSet(ctx, SeqUserReadKey(cid, "u2"), fieldValue, 1)

	if res, err := s.DeleteForMe(ctx, cid, []int64{1}, "u2"); err != nil || res.StaleCache != nil {
		t.Fatalf("DeleteForMe: %v / %v", err, res.StaleCache)
	}
	if res, err := s.MarkRead(ctx, cid, []int64{3, 4}, "u2"); err != nil || res.StaleCache != nil {
		t.Fatalf("MarkRead: %v / %v", err, res.StaleCache)
	}
	for seq, tagged := range map[int64]bool{1: true, 2: false, 3: true, 4: true, 5: false} {
		_, locked := srv.raw.HGetAll(ctx, MsgCacheKey(cid, seq)).Val()[fieldLockUntil]
		if locked != tagged {
			t.Errorf("seq %d tagged as deleted = %v, want %v", seq, locked, tagged)
		}
	}
	if got := slotOf(t, s, cid, 1, 5); got.Cached || len(got.Slot.DelList) != 1 {
		t.Errorf("deleted slot read back as %+v (cached=%v)", got.Slot, got.Cached)
	}
	if got := slotOf(t, s, cid, 4, 5); got.Cached || !got.Slot.IsRead {
		t.Errorf("read slot read back as %+v (cached=%v)", got.Slot, got.Cached)
	}
	if v := srv.raw.HGet(ctx, SeqUserReadKey(cid, "u2"), fieldValue).Val(); v != "4" {
		t.Errorf("SEQ_USER_READ = %s, want 4", v)
	}
	ws, err := s.Windows(ctx, "u2", []string{cid}, nil)
	if err != nil || ws[cid].ReadSeq != 4 {
		t.Errorf("window read seq = %+v, %v; want 4", ws[cid], err)
	}
}

// Redis holds new messages before MongoDB: a seq above the backend's last
// bucket, known only to MALLOC_SEQ and MSG_CACHE, is shown.
func TestMessageOnlyInRedisIsShown(t *testing.T) {
	srv := newServer(t)
	s := openStore(t, testkit.TempBackend(t), srv.addr)
	cid := srv.newCid(t)
	ctx := context.Background()
	insert(t, s, cid, 1, 100) // bucket 0 full; the insert tags keys 1..100
	srv.raw.HSet(ctx, MallocSeqKey(cid), fieldCurr, 101)
	srv.cacheSlot(t, cid, 101, textSlot(101, "just sent"))

	ws, err := s.Windows(ctx, "u2", []string{cid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ws[cid].MaxSeq != 101 {
		t.Fatalf("max seq = %d, want 101 from MALLOC_SEQ", ws[cid].MaxSeq)
	}
	before := s.Stats()
	bs, err := s.Buckets(ctx, cid, []int64{0, 1}, ws[cid].MaxSeq)
	if err != nil {
		t.Fatal(err)
	}
	after := s.Stats()
	if got := bs[1].Slots[0]; got.IsHole() || !got.Cached || got.Slot.Msg.Content != `{"content":"just sent"}` {
		t.Errorf("seq 101 = %+v, want the Redis-only message", got)
	}
	if got := bs[0].Slots[99]; got.IsHole() || got.Cached {
		t.Errorf("seq 100 = %+v, want it from the backend (its key was tagged by the insert)", got)
	}
	if d := after.CacheRoundTrips - before.CacheRoundTrips; d != 1 {
		t.Errorf("101 seqs took %d cache round trips, want 1", d)
	}
	if d := after.RoundTrips - before.RoundTrips; d != 1 {
		t.Errorf("backend round trips = %d, want 1 find (bucket 1 is fully cached)", d)
	}
	if hits, misses := after.CacheHits-before.CacheHits, after.CacheMisses-before.CacheMisses; hits != 1 || misses != 100 {
		t.Errorf("hits/misses = %d/%d, want 1/100", hits, misses)
	}
}

func TestRedisDownReadsFallBackAndWritesNameStaleKeys(t *testing.T) {
	srv := newServer(t)
	p := newProxy(t, srv.addr)
	s := openStore(t, testkit.TempBackend(t), p.addr())
	cid := srv.newCid(t)
	ctx := context.Background()
	insert(t, s, cid, 1, 3)
	p.kill()

	got := slotOf(t, s, cid, 2, 3)
	if got.IsHole() || got.Cached {
		t.Errorf("with Redis down seq 2 = %+v, want it from the backend", got)
	}
	if s.Stats().CacheError == nil {
		t.Error("Stats().CacheError is nil with Redis down: the UI could not warn")
	}
	if _, err := s.Windows(ctx, "u2", []string{cid}, nil); err != nil {
		t.Errorf("Windows failed with Redis down: %v", err)
	}
	res, err := s.Revoke(ctx, cid, []int64{2, 3}, bucket.Revoke{UserID: "admin"})
	if err != nil {
		t.Fatalf("Revoke failed although the backend write stands: %v", err)
	}
	if res.StaleCache == nil || !strings.Contains(res.StaleCache.Error(), MsgCacheKey(cid, 3)) {
		t.Errorf("StaleCache = %v, want it to name %s", res.StaleCache, MsgCacheKey(cid, 3))
	}
	if got := slotOf(t, s, cid, 3, 3); got.Slot == nil || got.Slot.Revoke == nil {
		t.Error("the backend revoke did not stand")
	}
}

// The server reads a user's min and max seq from SEQ_USER_MIN and
// SEQ_USER_MAX before the seq_user document (pkg/common/storage/cache/redis/
// seq_user.go GetUserMinSeq, GetUserMaxSeq; keys of cachekey/seq.go), so a
// window does too: the key wins over the document, a key being rebuilt
// (lockUntil, as shared/openim-recorded's SEQ_USER_MAX:sg_g1:u4) does not.
func TestWindowReadsSeqUserKeysFirst(t *testing.T) {
	srv := newServer(t)
	backend := testkit.TempBackend(t)
	s := openStore(t, backend, srv.addr)
	cid := srv.newCid(t)
	ctx := context.Background()
	insert(t, s, cid, 1, 20)
	testkit.Insert(t, backend, bucket.CollSeqUser, bucket.SeqUser{UserID: "u2", ConversationID: cid, MinSeq: 0, ReadSeq: 2})
	srv.raw.HSet(ctx, SeqUserMinKey(cid, "u2"), fieldValue, 12)
	window := func() *bucket.Window {
		t.Helper()
		ws, err := s.Windows(ctx, "u2", []string{cid}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return ws[cid]
	}
	if w := window(); w.MinSeq != 12 || !strings.Contains(w.StartReason(), "SEQ_USER_MIN") {
		t.Errorf("window from seq %d (%s), want 12 from SEQ_USER_MIN", w.MinSeq, w.StartReason())
	}
	srv.raw.HSet(ctx, SeqUserMinKey(cid, "u2"), fieldLockUntil, 0)
	if w := window(); w.MinSeq != 1 {
		t.Errorf("with SEQ_USER_MIN being rebuilt the window starts at %d, want 1 (seq_user.min_seq 0)", w.MinSeq)
	}
	got, err := openCache(t, srv.addr).UserSeqs(ctx, "u2", []string{cid, "n_" + cid})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Min) != 0 || len(got.Max) != 0 || len(got.Read) != 0 {
		t.Errorf("UserSeqs = %+v, want nothing (a locked key and misses)", got)
	}
	srv.raw.HSet(ctx, SeqUserMaxKey(cid, "u2"), fieldValue, 7)
	srv.raw.HSet(ctx, SeqUserReadKey(cid, "u2"), fieldValue, 5)
	if got, err = openCache(t, srv.addr).UserSeqs(ctx, "u2", []string{cid}); err != nil || got.Max[cid] != 7 || got.Read[cid] != 5 {
		t.Errorf("UserSeqs = %+v, %v; want max 7 and read 5", got, err)
	}
	if w := window(); w.UserMaxSeq != 7 || w.ReadSeq != 5 {
		t.Errorf("window user max %d, read %d; want 7 and 5 from Redis", w.UserMaxSeq, w.ReadSeq)
	}
}
