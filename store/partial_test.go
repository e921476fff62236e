package store_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestWriteStoppedPartWayInvalidatesAndSaysWhatWasDone: a revoke of two
// seqs in two buckets whose second bucket's update fails has changed the
// first slot. The cache key
// of that slot must be tagged (or users keep being served the message), and
// the operator must learn that seq 1 was revoked and seq 2 was not.
func TestWriteStoppedPartWayInvalidatesAndSaysWhatWasDone(t *testing.T) {
	ctx := t.Context()
	b := testkit.TempBackend(t)
	seed := store.New(b, store.Options{})
	if _, err := seed.InsertMessages(ctx, "si_alice_bob", 1, textMsgs(103)); err != nil {
		t.Fatal(err)
	}
	cache := newFakeCache()
	failing := &failAfter{countingBackend: &countingBackend{Backend: b}, after: 1}
	st := store.New(failing, store.Options{Cache: cache})

	res, err := st.Revoke(ctx, "si_alice_bob", []int64{1, 101}, bucket.Revoke{UserID: "alice", Time: 1})
	if err == nil {
		t.Fatal("a revoke that failed on seq 101 reported success")
	}
	if !strings.Contains(err.Error(), "done for seq 1 only") {
		t.Errorf("error %q does not say seq 1 was revoked", err)
	}
	if !slices.Equal(res.Applied, []int64{1}) {
		t.Errorf("Applied = %v, want [1]", res.Applied)
	}
	if !slices.Contains(cache.invalidated, 1) {
		t.Errorf("the key of revoked seq 1 was not invalidated: %v", cache.invalidated)
	}
	bs, rerr := seed.Buckets(ctx, "si_alice_bob", []int64{0, 1}, 103)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if bs[0].Slots[0].Slot.Revoke == nil || bs[1].Slots[0].Slot.Revoke != nil {
		t.Errorf("stored state disagrees with the report: seq 1 revoked %v, seq 101 revoked %v",
			bs[0].Slots[0].Slot.Revoke != nil, bs[1].Slots[0].Slot.Revoke != nil)
	}

	// Nothing done: no keys to tag, plain failure.
	cache.invalidated = nil
	failing.writes.Store(5)
	res, err = st.Revoke(ctx, "si_alice_bob", []int64{3}, bucket.Revoke{UserID: "alice", Time: 1})
	if err == nil || len(res.Applied) != 0 || strings.Contains(err.Error(), "part way") || len(cache.invalidated) != 0 {
		t.Errorf("a write that changed nothing: err %v, applied %v, invalidated %v", err, res.Applied, cache.invalidated)
	}
}
