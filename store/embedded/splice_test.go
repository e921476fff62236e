package embedded

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// TestSpliceSlotsIsTheRebuild: the one-copy update of a usual bucket gives
// byte for byte what the rebuilding path gives, for every kind of slot
// edit the state machine sends, on full and sparse buckets; and it declines
// the buckets it does not handle.
func TestSpliceSlotsIsTheRebuild(t *testing.T) {
	full, err := bson.Marshal(fullBucket("sg_g", 3))
	if err != nil {
		t.Fatal(err)
	}
	sparse := bucket.NewDoc(bucket.DocID("sg_g", 0))
	sparse.Msgs[7].Msg = &bucket.MsgData{SendID: "u1", Content: "hi", Seq: 8}
	sparseRaw, err := bson.Marshal(sparse)
	if err != nil {
		t.Fatal(err)
	}
	rev := &bucket.Revoke{Role: 1, UserID: "u2", Nickname: "Two", Time: 1700000000000}
	kinds := map[string]func(slot int) slotEdit{
		"revoke": func(slot int) slotEdit {
			return setEdits(store.FieldRevoke, []store.SlotValue{{Slot: slot, Value: rev}}, nil)[0]
		},
		"msg": func(slot int) slotEdit {
			return setEdits(store.FieldMsg, []store.SlotValue{{Slot: slot, Value: &bucket.MsgData{SendID: "x", Seq: int64(slot)}}}, nil)[0]
		},
		"del_list": func(slot int) slotEdit {
			return slotEdit{slot: slot, field: []string{"del_list"}, op: addToSet([]string{"u3", "u4"})}
		},
		"is_read": func(slot int) slotEdit { return markRead(slot, "nobody") },
	}
	r := rand.New(rand.NewPCG(5, 6))
	for name, doc := range map[string]bson.Raw{"full": full, "sparse": sparseRaw} {
		for kind, edit := range kinds {
			for n := 1; n <= 3; n++ {
				var edits []slotEdit
				for _, slot := range r.Perm(bucket.BucketSize)[:n] {
					edits = append(edits, edit(slot))
				}
				t.Run(fmt.Sprintf("%s/%s/%d", name, kind, n), func(t *testing.T) {
					got, ok := spliceSlots(doc, edits)
					want, err := updateSlotsRebuilding(doc, edits)
					if !ok || err != nil {
						t.Fatalf("splice ok %v, rebuild error %v", ok, err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("splice and rebuild differ:\n%s\n%s", got, want)
					}
				})
			}
		}
	}
	past := setEdits(store.FieldRevoke, []store.SlotValue{{Slot: bucket.BucketSize, Value: rev}}, nil)
	twice := append(setEdits(store.FieldRevoke, []store.SlotValue{{Slot: 1, Value: rev}}, nil), markRead(1, "x"))
	for name, edits := range map[string][]slotEdit{"slot past the end": past, "slot twice": twice} {
		if _, ok := spliceSlots(full, edits); ok {
			t.Errorf("%s: spliced, want the rebuilding path", name)
		}
	}
}
