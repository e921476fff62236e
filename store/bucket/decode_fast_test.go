package bucket

import (
	"reflect"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The hand decoder must take the slots chatlens and the server write, or
// reads are slow again without any test of sameness noticing; and it must
// hand what it does not decode exactly to bson.Unmarshal.
func TestHandDecoderTakesStoredSlots(t *testing.T) {
	full := &Slot{
		Msg: &MsgData{SendID: "u1", RecvID: "u2", ClientMsgID: "c", ServerMsgID: "s", SenderPlatformID: 1,
			SenderNickname: "Ann", SessionType: SessionGroup, MsgFrom: MsgFromUser, ContentType: 101,
			Content: `{"content":"hi"}`, Seq: 6, SendTime: 1700000000000, CreateTime: 1700000000000, Status: StatusSent,
			Options: map[string]bool{"history": true, "": false}, OfflinePush: &OfflinePush{Title: "t", IOSBadgeCount: true},
			AtUserIDList: []string{"u2"}},
		Revoke:  &Revoke{Role: RoleAdmin, UserID: "u1", Nickname: "Ann", Time: 1},
		DelList: []string{"u2", "u3"},
		IsRead:  true,
	}
	emptyOptions := &Slot{Msg: &MsgData{Options: map[string]bool{}, AtUserIDList: []string{}}, DelList: []string{}}
	for _, tc := range []struct {
		name string
		doc  any
		hand bool
	}{
		{"every field set", full, true},
		{"the server's empty slot", EmptySlot(), true},
		{"empty options and @ list", emptyOptions, true},
		{"int32 in an int64 field, as relaxed JSON imports store it", bson.D{{Key: "msg", Value: bson.D{{Key: "seq", Value: int32(6)}}}}, true},
		{"integral double", bson.D{{Key: "msg", Value: bson.D{{Key: "status", Value: 2.0}}}}, true},
		{"fractional double", bson.D{{Key: "msg", Value: bson.D{{Key: "status", Value: 2.5}}}}, false},
		{"int64 beyond int32", bson.D{{Key: "msg", Value: bson.D{{Key: "status", Value: int64(1) << 40}}}}, false},
		{"null string", bson.D{{Key: "msg", Value: bson.D{{Key: "content", Value: nil}}}}, false},
		{"unknown field", bson.D{{Key: "msg", Value: nil}, {Key: "x", Value: 1}}, false},
		{"repeated field", bson.D{{Key: "is_read", Value: true}, {Key: "is_read", Value: false}}, false},
		{"field in another case", bson.D{{Key: "Is_read", Value: true}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := bson.Marshal(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			var d slotDecoder
			indexSlot(raw, &d.slot, &d.msg)
			got, hand := d.decode(raw, 1)
			if hand != tc.hand {
				t.Fatalf("hand decoder took it: %v, want %v", hand, tc.hand)
			}
			if !hand {
				return
			}
			var want Slot
			if err := bson.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, want) {
				t.Fatalf("decoded %+v, bson.Unmarshal %+v", *got, want)
			}
		})
	}
}

// The strings of a decoded slot must not share memory with the raw bytes,
// which a backend may reuse for the next document.
func TestDecodedStringsOwnTheirBytes(t *testing.T) {
	raw, err := bson.Marshal(bson.D{{Key: "doc_id", Value: "sg_x:0"}, {Key: "msgs", Value: []*Slot{
		{Msg: &MsgData{Content: "hello", SendTime: 1, Seq: 1, Options: map[string]bool{"k": true}}, DelList: []string{"u"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	b := DecodeBucket(raw)
	for i := range raw {
		raw[i] = 'x'
	}
	s := b.Slots[0].Slot
	if s.Msg.Content != "hello" || s.DelList[0] != "u" || !s.Msg.Options["k"] {
		t.Fatalf("decoded slot changed with the raw bytes: %+v %+v", s, s.Msg)
	}
}
