package embedded

import (
	"bytes"
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// TestEncodeBucketIsTheDriversBytes: InsertBucket's own encoder writes the
// bytes bson.Marshal writes (with the _id first, as withID puts it), for
// full and sparse buckets and every optional part of a slot, set and unset.
func TestEncodeBucketIsTheDriversBytes(t *testing.T) {
	odd := bucket.NewDoc(bucket.DocID("si_a_b", 2))
	odd.Msgs[0] = nil // a nil slot is null, as the driver writes it
	odd.Msgs[1].DelList = nil
	odd.Msgs[2].Msg = &bucket.MsgData{SendID: "a", RecvID: "b", Content: "multi\x00byte ü", Seq: 203, IsRead: true,
		Options: map[string]bool{"history": false}, OfflinePush: &bucket.OfflinePush{Title: "t", Desc: "d", Ex: "e",
			IOSPushSound: "s", IOSBadgeCount: true}, AtUserIDList: []string{"x", "y"}, AttachedInfo: "{}", Ex: "ex",
		SenderPlatformID: -1, SessionType: bucket.SessionSingle, Status: bucket.StatusSent, SendTime: -5}
	odd.Msgs[3].Msg = &bucket.MsgData{Options: map[string]bool{}, AtUserIDList: []string{}}
	odd.Msgs[3].Revoke = &bucket.Revoke{Role: 100, UserID: "u", Nickname: "N", Time: 1}
	odd.Msgs[4].DelList = []string{"a", "b"}
	odd.Msgs[4].IsRead = true
	short := &bucket.Doc{DocID: "sg_x:0", Msgs: []*bucket.Slot{bucket.EmptySlot()}}
	none := &bucket.Doc{DocID: "sg_x:1"}
	for name, doc := range map[string]*bucket.Doc{"full": fullBucket("sg_g", 1), "odd": odd, "one slot": short, "no msgs": none} {
		id := bson.NewObjectID()
		got, ok := encodeBucket(doc, id)
		if !ok {
			t.Fatalf("%s: not encoded", name)
		}
		enc, err := bson.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		want := startDoc(len(enc) + 17)
		want = appendElem(want, "_id", bson.RawValue{Type: bson.TypeObjectID, Value: id[:]})
		want = endDoc(append(want, enc[4:len(enc)-1]...))
		if !bytes.Equal(got, want) {
			t.Errorf("%s: encoded\n%s\nthe driver writes\n%s", name, bson.Raw(got), bson.Raw(want))
		}
	}
	bad := bucket.NewDoc("sg_x:2")
	bad.Msgs[0].Msg = &bucket.MsgData{Options: map[string]bool{"a\x00b": true}}
	if _, ok := encodeBucket(bad, bson.NewObjectID()); ok {
		t.Error("a map key with a zero byte was encoded, want the driver asked")
	}
}

// Random slots (every exported field filled by testing/quick, so a field
// added to the model but not to encodeBucket shows) encode to the driver's
// bytes. Options keep one key: the driver writes several in random order.
func TestEncodeBucketMatchesTheDriverOnRandomSlots(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := range 300 {
		v, ok := quick.Value(reflect.TypeOf(bucket.Slot{}), rng)
		if !ok {
			t.Fatal("quick cannot build a slot")
		}
		slot := v.Interface().(bucket.Slot)
		if m := slot.Msg; m != nil && len(m.Options) > 1 {
			for k := range m.Options {
				m.Options = map[string]bool{k: m.Options[k]}
				break
			}
		}
		doc := bucket.NewDoc(bucket.DocID("si_a_b", int64(i)))
		doc.Msgs[i%len(doc.Msgs)] = &slot
		id := bson.NewObjectID()
		got, ok := encodeBucket(doc, id)
		if !ok {
			continue // a key with a zero byte: the driver is asked instead
		}
		enc, err := bson.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		want := startDoc(len(enc) + 17)
		want = appendElem(want, "_id", bson.RawValue{Type: bson.TypeObjectID, Value: id[:]})
		want = endDoc(append(want, enc[4:len(enc)-1]...))
		if !bytes.Equal(got, want) {
			t.Fatalf("slot %d: encoded\n%s\nthe driver writes\n%s", i, bson.Raw(got), bson.Raw(want))
		}
	}
}
