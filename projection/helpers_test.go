package projection

import (
	"encoding/json"

	"github.com/chatlens/chatlens/store/bucket"
)

const (
	single = "si_alice_bob"
	group  = "sg_team"
)

// stored builds the stored slot at seq holding msg, changed by mods.
func stored(seq int64, msg *bucket.MsgData, mods ...func(*bucket.Slot)) bucket.StoredSlot {
	slot := &bucket.Slot{Msg: msg, DelList: []string{}}
	for _, mod := range mods {
		mod(slot)
	}
	return bucket.StoredSlot{Seq: seq, Slot: slot}
}

func deletedBy(users ...string) func(*bucket.Slot) {
	return func(s *bucket.Slot) { s.DelList = append(s.DelList, users...) }
}

func revokedBy(uid, nick string, role int32, at int64) func(*bucket.Slot) {
	return func(s *bucket.Slot) { s.Revoke = &bucket.Revoke{Role: role, UserID: uid, Nickname: nick, Time: at} }
}

func read(s *bucket.Slot) { s.IsRead = true }

// message is a sent message of alice's in a single chat with bob.
func message(seq int64, ct int32, content string) *bucket.MsgData {
	return &bucket.MsgData{
		SendID: "alice", RecvID: "bob", ClientMsgID: "c" + itoa(seq), ServerMsgID: "s" + itoa(seq),
		SenderNickname: "Alice", SessionType: bucket.SessionSingle, MsgFrom: bucket.MsgFromUser,
		ContentType: ct, Content: content, Seq: seq, SendTime: 1700000000000 + seq, CreateTime: 1700000000000 + seq,
		Status: bucket.StatusSent, AtUserIDList: []string{},
	}
}

// groupMessage is a sent message of alice's in group "team".
func groupMessage(seq int64, ct int32, content string) *bucket.MsgData {
	m := message(seq, ct, content)
	m.RecvID, m.GroupID, m.SessionType = "", "team", bucket.SessionGroup
	return m
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// jsonOf marshals v, for building contents in tests.
func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func text(s string) string { return jsonOf(map[string]string{"content": s}) }

// notice is a notification content: detail is JSON inside a string.
func notice(detail any) string { return jsonOf(map[string]string{"detail": jsonOf(detail)}) }

// lookupOf serves the given slots by seq.
func lookupOf(slots ...bucket.StoredSlot) bucket.Lookup {
	return func(seq int64) (bucket.StoredSlot, bool) {
		for _, s := range slots {
			if s.Seq == seq {
				return s, true
			}
		}
		return bucket.StoredSlot{}, false
	}
}
