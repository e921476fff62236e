package storetest

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// testPullWindow: a user's window is OpenIM's pull window. From
// open-im-server pkg/common/storage/controller/msg.go GetMsgBySeqsRange:
// it starts at the higher of seq.min_seq and seq_user.min_seq and ends at
// the owner's conversation.max_seq when that is non-zero; conversation.min_seq
// is not read. internal/rpc/msg/sync_msg.go PullMessageBySeqs reads an "n_"
// conversation with GetMsgBySeqs instead, which caps by seq_user.max_seq.
func testPullWindow(e *fixture) {
	const group, notice, sn = "sg_club", "n_club", "sn_sys_zed"
	for _, cid := range []string{group, notice, sn} {
		e.insert(cid, 1, 90)
	}
	testkit.Insert(e.t, e.b, bucket.CollSeq,
		bson.D{{Key: "conversation_id", Value: group}, {Key: "min_seq", Value: int64(11)}, {Key: "max_seq", Value: int64(90)}})
	testkit.Insert(e.t, e.b, bucket.CollSeqUser,
		// ann cleared her own history up to 40; her seq_user.max_seq does not cap a group.
		bson.D{{Key: "user_id", Value: "ann"}, {Key: "conversation_id", Value: group}, {Key: "min_seq", Value: int64(41)},
			{Key: "max_seq", Value: int64(50)}, {Key: "read_seq", Value: int64(5)}},
		bson.D{{Key: "user_id", Value: "ann"}, {Key: "conversation_id", Value: notice}, {Key: "max_seq", Value: int64(60)}},
		bson.D{{Key: "user_id", Value: "ann"}, {Key: "conversation_id", Value: sn}, {Key: "max_seq", Value: int64(60)}})
	testkit.Insert(e.t, e.b, bucket.CollConversation,
		// conversation.min_seq is what OpenIM's clear writes for the list, not the window.
		bson.D{{Key: "owner_user_id", Value: "bob"}, {Key: "conversation_id", Value: group}, {Key: "min_seq", Value: int64(70)},
			{Key: "max_seq", Value: int64(80)}},
		bson.D{{Key: "owner_user_id", Value: "ann"}, {Key: "conversation_id", Value: notice}, {Key: "max_seq", Value: int64(30)}},
		bson.D{{Key: "owner_user_id", Value: "ann"}, {Key: "conversation_id", Value: sn}, {Key: "max_seq", Value: int64(30)}})
	for _, c := range []struct {
		uid, cid         string
		min, max, unread int64
		cap              string
	}{
		// Unread is the app's, max seq - read seq whatever the window's start
		// (openim-sdk-core internal/conversation_msg/sync.go).
		{"ann", group, 41, 90, 85, ""},                     // seq_user.min_seq 41 > seq.min_seq 11; read seq 5
		{"bob", group, 11, 80, 80, "conversation.max_seq"}, // seq.min_seq; conversation.min_seq 70 plays no part
		{"ann", notice, 1, 60, 60, "seq_user.max_seq"},     // n_: seq_user.max_seq caps, conversation.max_seq does not
		{"ann", sn, 1, 30, 30, "conversation.max_seq"},     // sn_ is pulled like any chat
	} {
		ws, err := e.s.Windows(e.ctx, c.uid, []string{c.cid}, nil)
		e.must(err, "windows")
		w := ws[c.cid]
		if w.MinSeq != c.min || w.MaxSeq != c.max || w.Unread() != c.unread || w.CapField != c.cap {
			e.errorf("%s's window of %s = min %d max %d unread %d capped by %q, want %d %d %d %q",
				c.uid, c.cid, w.MinSeq, w.MaxSeq, w.Unread(), w.CapField, c.min, c.max, c.unread, c.cap)
		}
		at, err := e.s.WindowAt(e.ctx, c.uid, *w)
		e.must(err, "window at")
		if at.MinSeq != w.MinSeq || at.MaxSeq != w.MaxSeq {
			e.errorf("%s's WindowAt of %s = %d..%d, Windows says %d..%d", c.uid, c.cid, at.MinSeq, at.MaxSeq, w.MinSeq, w.MaxSeq)
		}
	}
}
