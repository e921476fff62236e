package checktest

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Documents shaped exactly as OpenIM Server's own storage code writes them
// (open-im-server pkg/common/storage), built by hand. Every state here is
// one OpenIM's operations leave behind, so check must read each as clean and
// the read path must draw none with a malformed marker.

// OpenIMCase is one bucket OpenIM's code leaves, and what a reader sees at
// the position it is about.
type OpenIMCase struct {
	Name string
	Doc  bson.D
	Slot int  // the position the case is about
	Hole bool // whether that position holds no message
}

// Revoke is a revoke record as OpenIM's RevokeMsg writes it (model.RevokeModel).
func Revoke(by string, role int32) bson.D {
	return bson.D{{Key: "role", Value: role}, {Key: "user_id", Value: by},
		{Key: "nickname", Value: ""}, {Key: "time", Value: int64(1700000050000)}}
}

// OpenIMBuckets lists bucket 0 of Cid after each of OpenIM's writes that
// leaves a slot in a shape other than the full four fields.
func OpenIMBuckets() []OpenIMCase {
	// controller/msg.go DeleteMsgsPhysicalBySeqs -> mgo/msg.go
	// DeleteMsgsInOneDocByIndex: $set {"msgs.N": {msg: nil}}, nothing else.
	deleted := bson.D{{Key: "msg", Value: nil}}
	return []OpenIMCase{
		{"physically deleted", Bucket(DocID, WithSlot(6, deleted)), 6, true},
		// then mgo/msg.go MarkSingleChatMsgsAsRead: the filter
		// {"msgs.N.msg.send_id": {$ne: reader}} matches a null msg, and
		// $set adds is_read to the slot.
		{"physically deleted, then marked read", Bucket(DocID, WithSlot(6, With(deleted, "is_read", true))), 6, true},
		// then controller/msg.go DeleteUserMsgsBySeqs -> mgo/msg.go
		// PushUnique: $addToSet {"msgs.N.del_list": {$each: [user]}} creates
		// del_list; internal/rpc/msg/delete.go checks no message is there.
		{"physically deleted, then deleted for bob", Bucket(DocID, WithSlot(6, With(deleted, "del_list", bson.A{Bob}))), 6, true},
		// then an app admin's revoke (internal/rpc/msg/revoke.go skips the
		// role checks for an admin) -> batchInsertBlock: $set msgs.N.revoke.
		{"physically deleted, then revoked by an admin", Bucket(DocID, WithSlot(6, With(deleted, "revoke", Revoke("imAdmin", 0)))), 6, true},
		// then the message transfer delivers that seq again (at least once):
		// batchInsertBlock's UpdateMsg $set msgs.N.msg on the existing bucket.
		{"physically deleted, then the message stored again", Bucket(DocID, WithSlot(6, With(deleted, "msg", Message(7, 101, `{"content":"again"}`)))), 6, false},
		// mgo/msg.go MarkSingleChatMsgsAsRead over seqs past the last message.
		{"empty slot marked read", Bucket(DocID, WithSlot(50, Slot(nil, nil, bson.A{}, true))), 50, true},
		// internal/rpc/msg/delete.go: delete-for-me checks neither existence
		// nor window, so a hole gets a del_list.
		{"empty slot deleted for bob", Bucket(DocID, WithSlot(50, Slot(nil, nil, bson.A{Bob}, false))), 50, true},
		// controller/msg.go RevokeMsg -> batchInsertBlock with
		// updateKeyRevoke: a missing bucket is created around the revoke,
		// every other slot {msg: nil, revoke: nil, del_list: [], is_read: false}.
		{"bucket created by a revoke", Bucket(DocID, revokeOnly(40)), 40, true},
	}
}

// revokeOnly is the bucket batchInsertBlock creates for a revoke of seq
// at+1 when no bucket holds it yet.
func revokeOnly(at int) bson.A {
	out := make(bson.A, 100)
	for i := range out {
		out[i] = EmptySlot()
	}
	out[at] = Slot(nil, Revoke(Alice, 0), bson.A{}, false)
	return out
}

// OpenIMSeq is a seq document as mgo/seq_conversation.go writes it: Malloc
// upserts max_seq with $inc (int64) and $setOnInsert min_seq int64(0);
// setSeq's $setOnInsert writes Go int zeros, which the driver stores as
// int32.
func OpenIMSeq(cid string, maxSeq int64) bson.D {
	return bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "conversation_id", Value: cid},
		{Key: "max_seq", Value: maxSeq}, {Key: "min_seq", Value: int32(0)}}
}

// OpenIMSeqUser is a seq_user document as mgo/seq_user.go setSeq writes
// it for a read seq: $set read_seq (int64), $setOnInsert the other two as
// Go int zeros, stored as int32.
func OpenIMSeqUser(uid, cid string, readSeq int64) bson.D {
	return bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "conversation_id", Value: cid},
		{Key: "user_id", Value: uid}, {Key: "min_seq", Value: int32(0)}, {Key: "max_seq", Value: int32(0)},
		{Key: "read_seq", Value: readSeq}}
}

// JoinTime is when OpenIMGroupMember's member joined.
var JoinTime = time.Date(2024, 5, 1, 9, 30, 0, 0, time.UTC)

// OpenIMGroupMember is a group_member document as mgo/group_member.go
// writes model.GroupMember: join_time is a time.Time, a BSON date.
func OpenIMGroupMember(gid, uid string, role int32) bson.D {
	return bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "group_id", Value: gid}, {Key: "user_id", Value: uid},
		{Key: "nickname", Value: ""}, {Key: "face_url", Value: ""}, {Key: "role_level", Value: role},
		{Key: "join_time", Value: bson.NewDateTimeFromTime(JoinTime)}, {Key: "join_source", Value: int32(2)},
		{Key: "inviter_user_id", Value: ""}, {Key: "operator_user_id", Value: ""}, {Key: "mute_end_time", Value: bson.NewDateTimeFromTime(time.UnixMilli(0))},
		{Key: "ex", Value: ""}}
}
