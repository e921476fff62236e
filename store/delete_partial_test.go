package store_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
)

// stopsAtSecondSlot answers a delete for me as an ordered bulk write does
// when the second slot's del_list is not an array: the first slot's update
// ran, the rest did not.
type stopsAtSecondSlot struct{ store.Backend }

func (b stopsAtSecondSlot) AddToDelLists(ctx context.Context, docID string, slots []int, users []string) (int, error) {
	ran, err := b.Backend.AddToDelLists(ctx, docID, slots[:1], users)
	if err != nil {
		return ran, err
	}
	return ran, errors.New("update msg: Cannot apply $addToSet to non-array field")
}

// A delete for me sends one update per slot in one request (OpenIM's
// PushUnique per seq): when one of them fails, the seqs before it are
// deleted and reported done, the others not done.
func TestDeleteForMeStoppedAtASlotSaysWhatWasDone(t *testing.T) {
	const cid = "si_alice_bob"
	plain := seeded(t, cid, 5, store.Options{})
	s := store.New(stopsAtSecondSlot{plain.Backend()}, store.Options{})
	res, err := s.DeleteForMe(t.Context(), cid, []int64{2, 3, 4}, "bob")
	if err == nil || !strings.Contains(err.Error(), "non-array") {
		t.Fatalf("delete: %v; want the write error", err)
	}
	if !slices.Equal(res.Applied, []int64{2}) || len(res.Unknown) != 0 {
		t.Errorf("applied %v, unknown %v; want seq 2 done and nothing unknown", res.Applied, res.Unknown)
	}
	slots := slotsOf(t, plain, cid, 5)
	for seq := int64(1); seq <= 5; seq++ {
		if deleted := slices.Contains(slots[seq].Slot.DelList, "bob"); deleted != (seq == 2) {
			t.Errorf("seq %d deleted for bob: %v; want only seq 2", seq, deleted)
		}
	}
}
