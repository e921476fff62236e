package rediscache

import (
	"reflect"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// The MSG_CACHE value must be byte-compatible with what an OpenIM Server
// writes: encoding/json of its model, Go field names, in OPENIM.md's order.
const goldenSlot = `{"Msg":{"SendID":"u1","RecvID":"u2","GroupID":"g1","ClientMsgID":"cm","ServerMsgID":"sm",` +
	`"SenderPlatformID":2,"SenderNickname":"Ann","SenderFaceURL":"http://f","SessionType":1,"MsgFrom":100,` +
	`"ContentType":101,"Content":"{\"content\":\"hi \u003cb\u003e\"}","Seq":42,"SendTime":1700000000001,` +
	`"CreateTime":1700000000000,"Status":2,"IsRead":true,"Options":{"history":true},` +
	`"OfflinePush":{"Title":"t","Desc":"d","Ex":"e","IOSPushSound":"s","IOSBadgeCount":true},` +
	`"AtUserIDList":["u3"],"AttachedInfo":"ai","Ex":"ex"},` +
	`"Revoke":{"Role":60,"UserID":"u9","Nickname":"Admin","Time":1700000000002},"DelList":["u2"],"IsRead":true}`

func fullSlot() *bucket.Slot {
	return &bucket.Slot{
		Msg: &bucket.MsgData{SendID: "u1", RecvID: "u2", GroupID: "g1", ClientMsgID: "cm", ServerMsgID: "sm",
			SenderPlatformID: 2, SenderNickname: "Ann", SenderFaceURL: "http://f", SessionType: 1, MsgFrom: 100,
			ContentType: 101, Content: `{"content":"hi <b>"}`, Seq: 42, SendTime: 1700000000001,
			CreateTime: 1700000000000, Status: 2, IsRead: true, Options: map[string]bool{"history": true},
			OfflinePush:  &bucket.OfflinePush{Title: "t", Desc: "d", Ex: "e", IOSPushSound: "s", IOSBadgeCount: true},
			AtUserIDList: []string{"u3"}, AttachedInfo: "ai", Ex: "ex"},
		Revoke:  &bucket.Revoke{Role: 60, UserID: "u9", Nickname: "Admin", Time: 1700000000002},
		DelList: []string{"u2"},
		IsRead:  true,
	}
}

func TestSlotJSONMatchesServer(t *testing.T) {
	got, err := EncodeSlot(fullSlot())
	if err != nil {
		t.Fatal(err)
	}
	if got != goldenSlot {
		t.Errorf("MSG_CACHE value\n got %s\nwant %s", got, goldenSlot)
	}
	back, ok := decodeSlot(goldenSlot)
	if !ok || !reflect.DeepEqual(back, fullSlot()) {
		t.Errorf("decoding the server's JSON lost data: %+v", back)
	}
}

func TestSlotJSONAbsentValuesAreNull(t *testing.T) {
	got, err := EncodeSlot(&bucket.Slot{Msg: &bucket.MsgData{Seq: 1}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"Msg":{"SendID":"","RecvID":"","GroupID":"","ClientMsgID":"","ServerMsgID":"","SenderPlatformID":0,` +
		`"SenderNickname":"","SenderFaceURL":"","SessionType":0,"MsgFrom":0,"ContentType":0,"Content":"","Seq":1,` +
		`"SendTime":0,"CreateTime":0,"Status":0,"IsRead":false,"Options":null,"OfflinePush":null,` +
		`"AtUserIDList":null,"AttachedInfo":"","Ex":""},"Revoke":null,"DelList":null,"IsRead":false}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestDecodeSlotRejects(t *testing.T) {
	for _, raw := range []string{``, `null`, `{"Msg":`, `[]`, `{"Msg":{"Seq":"one"}}`, `"text"`} {
		if s, ok := decodeSlot(raw); ok {
			t.Errorf("decodeSlot(%q) = %+v, want a miss", raw, s)
		}
	}
	// A newer server may add fields: they are ignored, the slot still reads.
	if s, ok := decodeSlot(`{"Msg":{"Seq":7,"NewField":1},"IsRead":true}`); !ok || s.Msg.Seq != 7 || !s.IsRead {
		t.Errorf("unknown fields broke decoding: %+v %v", s, ok)
	}
}
