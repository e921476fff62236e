package bucket_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check/checktest"
)

// TestErasedSlotsAreThePhysicalDeletes: of the slot shapes OpenIM's own
// writes leave (checktest.OpenIMBuckets), the ones its physical delete
// made, and only those, read as erased: a seq that was sent, so the newest
// bucket's last sent seq counts it (a window without Redis ends there).
// With every field appended after the delete, the order still tells.
func TestErasedSlotsAreThePhysicalDeletes(t *testing.T) {
	for _, c := range checktest.OpenIMBuckets() {
		b := bucket.DecodeBucket(checktest.Raw(c.Doc))
		if want := strings.HasPrefix(c.Name, "physically deleted") && c.Hole; b.Slots[c.Slot].Erased != want {
			t.Errorf("%s: erased %v, want %v", c.Name, b.Slots[c.Slot].Erased, want)
		}
	}
	deleted := bson.D{{Key: "msg", Value: nil}}
	appended := bson.D{{Key: "msg", Value: nil}, {Key: "is_read", Value: true},
		{Key: "del_list", Value: bson.A{checktest.Bob}}, {Key: "revoke", Value: checktest.Revoke("imAdmin", 0)}}
	unreached := checktest.Slot(nil, nil, bson.A{}, true) // an empty slot marked read
	for _, c := range []struct {
		name string
		slot bson.D
		last int64 // the bucket's last sent seq: 30 messages, the slot at seq 61
	}{
		{"physically deleted", deleted, 61},
		{"physically deleted, then read, deleted for bob and revoked", appended, 61},
		{"never reached, marked read", unreached, 30},
	} {
		slots := checktest.CleanSlots()
		slots[60] = c.slot
		b := bucket.DecodeBucket(checktest.Raw(checktest.Bucket(checktest.DocID, slots)))
		if got := b.LastSentSeq(); got != c.last || b.LastFilledSeq() != 30 {
			t.Errorf("%s at seq 61: last sent seq %d (last filled %d), want %d (30)", c.name, got, b.LastFilledSeq(), c.last)
		}
	}
}
