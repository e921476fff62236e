// Package checktest holds the catalogue of malformed buckets found in real
// stores and the builders of the sound bucket they break, so that check,
// the read path and the UI are tested against the very same documents.
package checktest

import (
	"fmt"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Builders for demo-like buckets as they are stored, field by field, so a
// test can break exactly one thing.

// The two users of the single chat Cid, and DocID, the doc_id of its
// bucket 0, which the builders make.
const (
	Alice = "u_alice"
	Bob   = "u_bob"
	Cid   = "si_u_alice_u_bob"
	DocID = Cid + ":0"
)

// contents are one sound content of each common type, by content type.
var contents = []struct {
	ct      int32
	content string
}{
	{101, `{"content":"hello 你好 👋"}`},
	{102, `{"sourcePicture":{"url":"https://x/p.png","width":640,"height":480}}`},
	{103, `{"sourceUrl":"https://x/v.m4a","duration":7}`},
	{104, `{"videoUrl":"https://x/v.mp4","duration":12,"snapshotUrl":"https://x/s.png"}`},
	{105, `{"fileName":"report.pdf","fileSize":1234567,"sourceUrl":"https://x/r.pdf"}`},
	{106, `{"text":"@bob look","atUserList":["u_bob"]}`},
	{108, `{"userID":"u_carol","nickname":"Carol"}`},
	{109, `{"description":"Office","longitude":2.35,"latitude":48.85}`},
	{110, `{"data":"x","description":"","extension":""}`},
	{114, `{"text":"yes","quoteMessage":{"seq":1}}`},
	{1501, `{"detail":"{\"group\":{\"groupID\":\"g1\"}}"}`},
	{999, `not JSON, but an unknown type may hold anything`},
}

// Message is a complete MsgData with every field of the contract.
func Message(seq int64, ct int32, content string) bson.D {
	sender := Alice
	if seq%2 == 0 {
		sender = Bob
	}
	return bson.D{
		{Key: "send_id", Value: sender}, {Key: "recv_id", Value: Bob}, {Key: "group_id", Value: ""},
		{Key: "client_msg_id", Value: fmt.Sprintf("c%d", seq)}, {Key: "server_msg_id", Value: fmt.Sprintf("s%d", seq)},
		{Key: "sender_platform_id", Value: int32(1)}, {Key: "sender_nickname", Value: "Alice"},
		{Key: "sender_face_url", Value: ""}, {Key: "session_type", Value: int32(1)}, {Key: "msg_from", Value: int32(100)},
		{Key: "content_type", Value: ct}, {Key: "content", Value: content}, {Key: "seq", Value: seq},
		{Key: "send_time", Value: int64(1700000000000) + seq}, {Key: "create_time", Value: int64(1700000000000) + seq},
		{Key: "status", Value: int32(2)}, {Key: "is_read", Value: false},
		{Key: "options", Value: bson.D{{Key: "history", Value: true}}}, {Key: "offline_push", Value: nil},
		{Key: "at_user_id_list", Value: nil}, {Key: "attached_info", Value: ""}, {Key: "ex", Value: ""},
	}
}

// Slot is a slot document with the contract's four fields.
func Slot(msg, revoke any, delList bson.A, isRead bool) bson.D {
	return bson.D{{Key: "msg", Value: msg}, {Key: "revoke", Value: revoke}, {Key: "del_list", Value: delList}, {Key: "is_read", Value: isRead}}
}

// EmptySlot is the server's empty slot.
func EmptySlot() bson.D { return Slot(nil, nil, bson.A{}, false) }

// CleanSlots is bucket 0 of a single chat as the server leaves it: the first
// 30 seqs hold messages of every type, one revoked, one deleted for bob, some
// read, one with a push block; a hole at seq 20 and empty slots after 30.
func CleanSlots() bson.A {
	out := make(bson.A, 100)
	for i := range out {
		seq := int64(i + 1)
		switch {
		case seq > 30 || seq == 20:
			out[i] = EmptySlot()
		default:
			c := contents[i%len(contents)]
			msg := Message(seq, c.ct, c.content)
			var revoke any
			delList := bson.A{}
			switch seq {
			case 3:
				revoke = bson.D{{Key: "role", Value: int32(0)}, {Key: "user_id", Value: Alice},
					{Key: "nickname", Value: "Alice"}, {Key: "time", Value: int64(1700000009999)}}
			case 4:
				delList = bson.A{Bob}
			case 5:
				msg = With(msg, "offline_push", bson.D{{Key: "title", Value: "t"}, {Key: "desc", Value: ""},
					{Key: "ex", Value: ""}, {Key: "ios_push_sound", Value: ""}, {Key: "ios_badge_count", Value: true}})
				msg = With(msg, "at_user_id_list", bson.A{Bob})
			}
			out[i] = Slot(msg, revoke, delList, seq < 10)
		}
	}
	return out
}

// Bucket is a msg document with a fresh _id.
func Bucket(docID any, msgs any) bson.D {
	return bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "doc_id", Value: docID}, {Key: "msgs", Value: msgs}}
}

// CleanBucket is bucket 0 of Cid, sound.
func CleanBucket() bson.D { return Bucket(DocID, CleanSlots()) }

// With is a copy of d with key set to v (appended when absent).
func With(d bson.D, key string, v any) bson.D {
	out := append(bson.D{}, d...)
	for i := range out {
		if out[i].Key == key {
			out[i].Value = v
			return out
		}
	}
	return append(out, bson.E{Key: key, Value: v})
}

// Without is a copy of d with the keys left out.
func Without(d bson.D, keys ...string) bson.D {
	var out bson.D
	for _, e := range d {
		if !contains(keys, e.Key) {
			out = append(out, e)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// WithSlot is CleanSlots with position i replaced.
func WithSlot(i int, v any) bson.A {
	s := CleanSlots()
	s[i] = v
	return s
}

// WithMsgField is CleanSlots with one field of the message at position i set.
func WithMsgField(i int, key string, v any) bson.A {
	s := CleanSlots()
	sl := s[i].(bson.D)
	msg := sl[0].Value.(bson.D)
	s[i] = With(sl, "msg", With(msg, key, v))
	return s
}

// WithoutMsgFields is CleanSlots with fields of the message at position i removed.
func WithoutMsgFields(i int, keys ...string) bson.A {
	s := CleanSlots()
	sl := s[i].(bson.D)
	s[i] = With(sl, "msg", Without(sl[0].Value.(bson.D), keys...))
	return s
}

// Raw marshals d; the builders never fail to marshal.
func Raw(d bson.D) bson.Raw {
	b, err := bson.Marshal(d)
	if err != nil {
		panic(err)
	}
	return b
}

// bigContent is a text content above bucket.MaxContentBytes, made when
// asked: every test binary importing this package (the command's among
// them, which its process tests start again and again) would build it at
// start.
func bigContent() string { return `{"content":"` + strings.Repeat("x", 1<<20) + `"}` }
