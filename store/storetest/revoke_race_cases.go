package storetest

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// testRevokeAfterAnotherWriter is the check-then-write race made
// deterministic: alice's revoke was checked while seq 3 stood unrevoked,
// then bob revoked it first. Her update carries "not revoked yet" in its
// filter, so it is told "already revoked" and bob's revoke stands; in a
// batch the other seqs are still revoked, and the report says which.
// (open-im-server internal/rpc/msg/revoke.go refuses "msg already revoke".)
func testRevokeAfterAnotherWriter(e *fixture) {
	const cid = "si_alice_bob"
	e.insert(cid, 1, 5)
	e.must(e.s.CheckTargets(e.ctx, cid, "bob", []int64{3}, store.ActionRevoke), "check before the race")
	other := store.New(e.b, store.Options{})
	_, err := other.Revoke(e.ctx, cid, []int64{3}, bucket.Revoke{UserID: "bob", Time: 1})
	e.must(err, "bob's revoke")

	res, err := e.s.Revoke(e.ctx, cid, []int64{3}, bucket.Revoke{UserID: "alice", Time: 2})
	var te *store.TargetError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "already revoked") || len(res.Applied) != 0 {
		e.errorf("revoke of a seq revoked meanwhile: applied %v, err %v; want refused as already revoked", res.Applied, err)
	}
	res, err = e.s.Revoke(e.ctx, cid, []int64{2, 3, 4}, bucket.Revoke{UserID: "alice", Time: 2})
	if err == nil || !strings.Contains(err.Error(), "done for seq 2,4 only") || !strings.Contains(err.Error(), "seq 3: already revoked") {
		e.errorf("batch with one seq revoked meanwhile: %v; want seq 2,4 done and seq 3 already revoked", err)
	}
	if fmt.Sprint(res.Applied) != "[2 4]" {
		e.errorf("applied %v, want [2 4]", res.Applied)
	}
	b := e.buckets(cid, 0)[0]
	for seq, who := range map[int64]string{2: "alice", 3: "bob", 4: "alice"} {
		if r := b.Slots[seq-1].Slot.Revoke; r == nil || r.UserID != who {
			e.errorf("seq %d revoked by %+v, want %s", seq, r, who)
		}
	}
}

// testConcurrentRevokes has 8 operators revoke the same seq at once: exactly
// one is told done and its revoke is the one stored; the others are told
// already revoked.
func testConcurrentRevokes(e *fixture) {
	const cid = "sg_busy"
	e.insert(cid, 1, 5)
	const writers = 8
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[w] = e.s.Revoke(e.ctx, cid, []int64{3}, bucket.Revoke{UserID: fmt.Sprintf("op%d", w), Time: int64(w + 1)})
		}()
	}
	wg.Wait()
	winner := -1
	for w, err := range errs {
		var te *store.TargetError
		switch {
		case err == nil && winner >= 0:
			e.errorf("op%d and op%d were both told their revoke was done", winner, w)
		case err == nil:
			winner = w
		case !errors.As(err, &te):
			e.errorf("op%d: %v, want done or already revoked", w, err)
		}
	}
	if winner < 0 {
		e.fatalf("no operator was told done")
	}
	if r := e.buckets(cid, 0)[0].Slots[2].Slot.Revoke; r == nil || r.UserID != fmt.Sprintf("op%d", winner) {
		e.errorf("stored revoke %+v, but op%d was told done", r, winner)
	}
}
