package rediscache

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

func TestSlotsHitMissLockedAndBad(t *testing.T) {
	srv := newServer(t)
	c := openCache(t, srv.addr)
	cid := srv.newCid(t)
	ctx := context.Background()
	srv.cacheSlot(t, cid, 1, textSlot(1, "hit"))
	srv.cacheSlot(t, cid, 2, textSlot(2, "being rebuilt"))
	srv.raw.HSet(ctx, MsgCacheKey(cid, 2), fieldLockUntil, time.Now().Unix()+5, fieldLockOwner, "other-server")
	srv.raw.HSet(ctx, MsgCacheKey(cid, 3), fieldValue, `{"Msg":{"Seq":"not a number"}}`)
	srv.raw.Set(ctx, MsgCacheKey(cid, 4), "a string, not a hash", time.Minute)
	srv.raw.HSet(ctx, MsgCacheKey(cid, 6), fieldLockUntil, 0) // tagged as deleted, no value

	got, err := c.Slots(ctx, cid, []int64{1, 2, 3, 4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[1] == nil || got[1].Msg.Content != `{"content":"hit"}` {
		t.Errorf("Slots = %v, want only seq 1 (2 locked, 3 undecodable, 4 wrong type, 5 absent, 6 tagged)", got)
	}
	if bad := c.Stats().BadValues; bad != 2 {
		t.Errorf("BadValues = %d, want 2 (seq 3 and 4)", bad)
	}
}

func TestSlotsOneRoundTripForAScreen(t *testing.T) {
	srv := newServer(t)
	c := openCache(t, srv.addr)
	cid := srv.newCid(t)
	var seqs []int64
	for seq := int64(1); seq <= 100; seq++ {
		seqs = append(seqs, seq)
		if seq%2 == 0 {
			srv.cacheSlot(t, cid, seq, textSlot(seq, "m"+strconv.FormatInt(seq, 10)))
		}
	}
	before := c.Stats().RoundTrips
	got, err := c.Slots(context.Background(), cid, seqs)
	if err != nil {
		t.Fatal(err)
	}
	if trips := c.Stats().RoundTrips - before; trips != 1 {
		t.Errorf("100 seqs took %d round trips, want 1", trips)
	}
	if len(got) != 50 || got[100].Msg.Content != `{"content":"m100"}` {
		t.Errorf("got %d hits, want the 50 even seqs", len(got))
	}
}

func TestInvalidateTagsAsDeleted(t *testing.T) {
	srv := newServer(t)
	c := openCache(t, srv.addr)
	cid := srv.newCid(t)
	ctx := context.Background()
	srv.cacheSlot(t, cid, 7, textSlot(7, "old"))
	srv.raw.HSet(ctx, MsgCacheKey(cid, 7), fieldLockOwner, "stale-owner")

	before := c.Stats().RoundTrips
	if err := c.Invalidate(ctx, cid, []int64{7, 8}); err != nil {
		t.Fatal(err)
	}
	if trips := c.Stats().RoundTrips - before; trips > 2 {
		t.Errorf("first invalidation took %d round trips, want 1 (2 when the script is new to the server)", trips)
	}
	for _, seq := range []int64{7, 8} {
		key := MsgCacheKey(cid, seq)
		h := srv.raw.HGetAll(ctx, key).Val()
		if h[fieldLockUntil] != "0" {
			t.Errorf("%s lockUntil = %q, want 0", key, h[fieldLockUntil])
		}
		if _, ok := h[fieldLockOwner]; ok {
			t.Errorf("%s still has lockOwner", key)
		}
		if ttl := srv.raw.TTL(ctx, key).Val(); ttl <= 0 || ttl > deletedTTL*time.Second {
			t.Errorf("%s TTL = %s, want (0, 10s]", key, ttl)
		}
	}
	// Tagged, not deleted: the old value is still there, and never served.
	if srv.raw.HGet(ctx, MsgCacheKey(cid, 7), fieldValue).Val() == "" {
		t.Error("invalidation removed the value: the server tags, it does not DEL")
	}
	if got, err := c.Slots(ctx, cid, []int64{7, 8}); err != nil || len(got) != 0 {
		t.Errorf("after invalidation Slots = %v, %v; want no hits", got, err)
	}
	before = c.Stats().RoundTrips
	if err := c.Invalidate(ctx, cid, []int64{7}); err != nil {
		t.Fatal(err)
	}
	if trips := c.Stats().RoundTrips - before; trips != 1 {
		t.Errorf("invalidation took %d round trips, want 1", trips)
	}
}

func TestMaxSeqsAndReadSeqs(t *testing.T) {
	srv := newServer(t)
	c := openCache(t, srv.addr)
	known, unknown, garbled := srv.newCid(t), srv.newCid(t), srv.newCid(t)
	ctx := context.Background()
	srv.raw.HSet(ctx, MallocSeqKey(known), fieldCurr, 123, "LAST", 200, "TIME", 1700000000)
	srv.raw.HSet(ctx, MallocSeqKey(garbled), fieldCurr, "many")
	srv.raw.HSet(ctx, SeqUserReadKey(known, "u1"), fieldValue, 99)
	srv.raw.HSet(ctx, SeqUserReadKey(garbled, "u1"), fieldValue, 5, fieldLockUntil, 0)

	maxes, err := c.MaxSeqs(ctx, []string{known, unknown, garbled})
	if err != nil {
		t.Fatal(err)
	}
	if len(maxes) != 1 || maxes[known] != 123 {
		t.Errorf("MaxSeqs = %v, want only %s=123", maxes, known)
	}
	reads, err := c.ReadSeqs(ctx, "u1", []string{known, unknown, garbled})
	if err != nil {
		t.Fatal(err)
	}
	if len(reads) != 1 || reads[known] != 99 {
		t.Errorf("ReadSeqs = %v, want only %s=99 (the locked one is a miss)", reads, known)
	}
	if got, err := c.MaxSeqs(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("MaxSeqs(nil) = %v, %v", got, err)
	}
}

func TestRaiseReadSeqOnlyRaises(t *testing.T) {
	srv := newServer(t)
	c := openCache(t, srv.addr)
	cid, absent := srv.newCid(t), srv.newCid(t)
	ctx := context.Background()
	key := SeqUserReadKey(cid, "u1")
	srv.raw.HSet(ctx, key, fieldValue, 5)
	srv.raw.Expire(ctx, key, time.Hour)

	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 1; i <= 20; i++ {
		wg.Add(1)
		go func(seq int64) {
			defer wg.Done()
			errs <- c.RaiseReadSeq(ctx, cid, "u1", seq)
		}(int64(i))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := c.RaiseReadSeq(ctx, cid, "u1", 3); err != nil {
		t.Fatal(err)
	}
	if v := srv.raw.HGet(ctx, key, fieldValue).Val(); v != "20" {
		t.Errorf("read seq = %s after raises to 1..20 and 3, want 20", v)
	}
	if ttl := srv.raw.TTL(ctx, key).Val(); ttl <= 0 {
		t.Errorf("raising lost the key's TTL (%s)", ttl)
	}
	// No cached value: left for the server to load from seq_user.
	if err := c.RaiseReadSeq(ctx, absent, "u1", 9); err != nil {
		t.Fatal(err)
	}
	if n := srv.raw.Exists(ctx, SeqUserReadKey(absent, "u1")).Val(); n != 0 {
		t.Error("RaiseReadSeq created a read-seq key the server had not cached")
	}
}

func TestRedisKilledMidSession(t *testing.T) {
	srv := newServer(t)
	p := newProxy(t, srv.addr)
	c := openCache(t, p.addr())
	cid := srv.newCid(t)
	ctx := context.Background()
	srv.cacheSlot(t, cid, 1, textSlot(1, "before"))
	if got, err := c.Slots(ctx, cid, []int64{1}); err != nil || len(got) != 1 {
		t.Fatalf("before the kill: %v, %v", got, err)
	}
	p.kill()

	if _, err := c.Slots(ctx, cid, []int64{1}); err == nil {
		t.Error("Slots succeeded with Redis down")
	}
	if _, err := c.MaxSeqs(ctx, []string{cid}); err == nil {
		t.Error("MaxSeqs succeeded with Redis down")
	}
	if _, err := c.ReadSeqs(ctx, "u1", []string{cid}); err == nil {
		t.Error("ReadSeqs succeeded with Redis down")
	}
	if err := c.RaiseReadSeq(ctx, cid, "u1", 3); err == nil {
		t.Error("RaiseReadSeq succeeded with Redis down")
	}
	err := c.Invalidate(ctx, cid, []int64{1, 2})
	t.Logf("invalidate with Redis down: %v", err)
	if err == nil || !strings.Contains(err.Error(), MsgCacheKey(cid, 1)) || !strings.Contains(err.Error(), MsgCacheKey(cid, 2)) {
		t.Errorf("Invalidate with Redis down = %v, want an error naming both keys", err)
	}
}

func TestHungRedisTimesOut(t *testing.T) {
	c, err := Open(context.Background(), silentServer(t), Options{Timeout: 50 * time.Millisecond, NoPing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Slots(context.Background(), "si_a_b", []int64{1, 2, 3})
	var ne net.Error
	if err == nil || !(errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()) {
		t.Errorf("Slots against a silent server = %v, want a timeout", err)
	}
}

func TestOpenFailuresAreOneLineWithoutPassword(t *testing.T) {
	const secret = "hunter2-wrong"
	addrs := map[string]string{
		"unreachable": "redis://:" + secret + "@" + closedPort(t) + "/0",
		"bad address": "redis://:" + secret + "@host:notaport/0",
	}
	// A real Redis whose default user is nopass accepts any password, so
	// the wrong-password case runs on miniredis only.
	if srv := newServer(t); srv.mini != nil {
		srv.mini.RequireAuth("right-pass")
		addrs["wrong password"] = "redis://:" + secret + "@" + srv.addr + "/0"
	}
	for name, addr := range addrs {
		c, err := Open(context.Background(), addr, Options{Timeout: 200 * time.Millisecond})
		if err == nil {
			_ = c.Close()
			t.Errorf("%s: Open succeeded", name)
			continue
		}
		t.Logf("%s: %v", name, err)
		mustNotContain(t, name, err.Error(), secret)
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error is not one line: %q", name, err)
		}
		if errors.Is(err, ErrBadAddress) != (name == "bad address") {
			t.Errorf("%s: ErrBadAddress mark wrong: %v", name, err)
		}
	}
}

func TestDescribeMasksPassword(t *testing.T) {
	srv := newServer(t)
	if srv.mini == nil {
		t.Skip("the real Redis has no password to test with")
	}
	srv.mini.RequireAuth("s3cret-pw")
	c := openCache(t, "redis://:s3cret-pw@"+srv.addr+"/0")
	if want := "redis://:****@" + srv.addr + "/0"; c.Describe() != want {
		t.Errorf("Describe = %q, want %q", c.Describe(), want)
	}
}

// A Cluster client spreads a pipeline over the slot owners. miniredis
// answers CLUSTER SLOTS as a one-node cluster (or set
// CHATLENS_TEST_REDIS_CLUSTER=host:port to a real cluster node), so every
// method runs through go-redis's ClusterClient here.
func TestClusterMode(t *testing.T) {
	addr := os.Getenv("CHATLENS_TEST_REDIS_CLUSTER")
	if addr == "" {
		addr = miniredis.RunT(t).Addr()
	}
	c := openCache(t, "redis+cluster://"+addr)
	if c.Mode() != ModeCluster {
		t.Fatalf("mode = %s", c.Mode())
	}
	cid := fmt.Sprintf("si_chatlenstest%d_u2", time.Now().UnixNano())
	ctx := context.Background()
	v, _ := EncodeSlot(textSlot(3, "x"))
	for seq := int64(1); seq <= 20; seq++ {
		if err := c.client.HSet(ctx, MsgCacheKey(cid, seq), fieldValue, v).Err(); err != nil {
			t.Fatal(err)
		}
		defer c.client.Del(ctx, MsgCacheKey(cid, seq))
	}
	seqs := make([]int64, 20)
	for i := range seqs {
		seqs[i] = int64(i + 1)
	}
	if got, err := c.Slots(ctx, cid, seqs); err != nil || len(got) != 20 {
		t.Fatalf("cluster Slots = %d hits, %v", len(got), err)
	}
	if err := c.Invalidate(ctx, cid, seqs); err != nil {
		t.Fatalf("cluster Invalidate: %v", err)
	}
	if got, err := c.Slots(ctx, cid, seqs); err != nil || len(got) != 0 {
		t.Errorf("cluster Slots after invalidation = %d hits, %v", len(got), err)
	}
}

// Sentinel mode runs only against a real Sentinel: set
// CHATLENS_TEST_REDIS_SENTINEL=redis+sentinel://host:26379/mastername.
func TestSentinelMode(t *testing.T) {
	addr := os.Getenv("CHATLENS_TEST_REDIS_SENTINEL")
	if addr == "" {
		t.Skip("CHATLENS_TEST_REDIS_SENTINEL is not set")
	}
	c := openCache(t, addr)
	if c.Mode() != ModeSentinel {
		t.Fatalf("mode = %s", c.Mode())
	}
	cid := fmt.Sprintf("si_chatlenstest%d_u2", time.Now().UnixNano())
	ctx := context.Background()
	v, _ := EncodeSlot(textSlot(1, "x"))
	if err := c.client.HSet(ctx, MsgCacheKey(cid, 1), fieldValue, v).Err(); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Slots(ctx, cid, []int64{1, 2}); err != nil || len(got) != 1 {
		t.Fatalf("sentinel Slots = %d hits, %v", len(got), err)
	}
	if err := c.Invalidate(ctx, cid, []int64{1, 2}); err != nil {
		t.Fatalf("sentinel Invalidate: %v", err)
	}
	if got, err := c.Slots(ctx, cid, []int64{1}); err != nil || len(got) != 0 {
		t.Errorf("sentinel Slots after invalidation = %d hits, %v", len(got), err)
	}
}

// Raising a cached read seq writes the value and gives the key 30 days to
// live again, as OpenIM's SetUserReadSeq does (open-im-server
// pkg/common/storage/cache/redis/seq_user.go: readExpireTime 30 days,
// rockscache RawSet = HSET value + EXPIRE). A raise that changes nothing
// leaves the TTL alone, as there OpenIM writes nothing.
func TestRaiseReadSeqRefreshesThirtyDays(t *testing.T) {
	srv := newServer(t)
	c := openCache(t, srv.addr)
	cid := srv.newCid(t)
	ctx := context.Background()
	key := SeqUserReadKey(cid, "u1")
	srv.raw.HSet(ctx, key, fieldValue, 5)
	srv.raw.Expire(ctx, key, time.Hour)

	if err := c.RaiseReadSeq(ctx, cid, "u1", 8); err != nil {
		t.Fatal(err)
	}
	if v := srv.raw.HGet(ctx, key, fieldValue).Val(); v != "8" {
		t.Errorf("read seq = %s after a raise to 8", v)
	}
	if ttl := srv.raw.TTL(ctx, key).Val(); ttl <= 29*24*time.Hour || ttl > 30*24*time.Hour {
		t.Errorf("TTL after a raise = %s, want 30 days", ttl)
	}
	srv.raw.Expire(ctx, key, time.Hour)
	if err := c.RaiseReadSeq(ctx, cid, "u1", 3); err != nil {
		t.Fatal(err)
	}
	if v, ttl := srv.raw.HGet(ctx, key, fieldValue).Val(), srv.raw.TTL(ctx, key).Val(); v != "8" || ttl > time.Hour {
		t.Errorf("after a lower raise: value %s, TTL %s; want 8 and the hour it had", v, ttl)
	}
}

// TestDefaultBoundsAreTheREADMEs holds the README's promise with no options
// set: a hung Redis gets 500 ms to answer, and after that failure it is not
// asked again for 10 s (the second call is skipped, not timed out).
func TestDefaultBoundsAreTheREADMEs(t *testing.T) {
	c, err := Open(context.Background(), silentServer(t), Options{NoPing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Slots(context.Background(), "si_a_b", []int64{1})
	if err == nil || !strings.Contains(err.Error(), "no answer within 500ms") {
		t.Fatalf("first call to a hung Redis = %v, want no answer within 500ms", err)
	}
	_, err = c.Slots(context.Background(), "si_a_b", []int64{1})
	if err == nil || !strings.Contains(err.Error(), "not asked") || !strings.Contains(err.Error(), "10s after a failure") {
		t.Errorf("second call = %v, want it not asked, Redis tried again 10s after a failure", err)
	}
}

// Every member's SEQ_USER_READ of one conversation in one pipeline: a
// locked key is a miss, a user without a key is left out.
func TestReadSeqsOfMembers(t *testing.T) {
	srv := newServer(t)
	c := openCache(t, srv.addr)
	cid := srv.newCid(t)
	ctx := context.Background()
	srv.raw.HSet(ctx, SeqUserReadKey(cid, "u1"), fieldValue, 12)
	srv.raw.HSet(ctx, SeqUserReadKey(cid, "u2"), fieldValue, 5, fieldLockUntil, 0)
	before := c.Stats().RoundTrips
	got, err := c.ReadSeqsOf(ctx, cid, []string{"u1", "u2", "u3"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got["u1"] != 12 {
		t.Errorf("ReadSeqsOf = %v, want only u1=12", got)
	}
	if trips := c.Stats().RoundTrips - before; trips != 1 {
		t.Errorf("ReadSeqsOf took %d round trips, want 1", trips)
	}
}
