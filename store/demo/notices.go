package demo

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// The notifications OpenIM's API leaves after the demo's writes, so that
// the demo's revokes, deletes and read marks carry the times `--at` and
// the inspector's "told by" read back (store.History, store.Told). Shaped
// as the recorded server stores them (../shared/openim-recorded-timed,
// open-im-server 7848d7c73):
//   - a revoke: a 2101 (sdkws.RevokeMsgTips) from the revoker to the
//     message's receiver or group, a few ms after the revoke record's time
//     (internal/rpc/msg/revoke.go RevokeMsg);
//   - a delete for me: a 2102 (sdkws.DeleteMsgsTips) from the user to
//     themselves, only when the call set IsSyncSelf (internal/rpc/msg/
//     delete.go DeleteMsgs); the demo makes some deletes without it, whose
//     time no evidence gives;
//   - a read mark: a 2200 (sdkws.MarkAsReadTips) from the reader to the
//     other user or the group, its hasReadSeq the request's last seq
//     (internal/rpc/msg/as_read.go MarkMsgsAsRead).
// Each lands in the notification conversation store.NotificationConversationID
// or store.SelfNotificationID names, at seqs in the order of their times.
// Their options are left unset, as the demo's other messages': the
// server stores its map of them in Go's random key order, and the same
// seed must give the same documents.

// noticeBook gathers the notifications while the conversations are
// planned. Its random draws come from a stream of their own, so the
// conversations are the same documents with or without them.
type noticeBook struct {
	rng  *rand.Rand
	msgs map[string][]*bucket.MsgData // notification conversation → its messages, unordered
	n    int
}

// noticeStream is the second word of the notifications' PCG state.
const noticeStream = 0x6e6f7469636573 // "notices"

func newNoticeBook(seed int64) *noticeBook {
	return &noticeBook{rng: rand.New(rand.NewPCG(uint64(seed), noticeStream)), msgs: map[string][]*bucket.MsgData{}}
}

// add records a notification of c of type ct from sendID to recvID (a
// user, or the group of a group's) at ms, in ncid.
func (b *noticeBook) add(ncid string, c *conv, sendID, recvID string, session, ct int32, at int64, tips any) {
	m := &bucket.MsgData{SendID: sendID, RecvID: recvID, ClientMsgID: hexFrom(b.rng), ServerMsgID: hexFrom(b.rng),
		SessionType: session, MsgFrom: bucket.MsgFromSystem, ContentType: ct, Content: notificationContent(tips),
		SendTime: at, CreateTime: at, OfflinePush: &bucket.OfflinePush{}}
	if session == bucket.SessionGroup {
		m.GroupID = c.group.ID
	}
	b.msgs[ncid] = append(b.msgs[ncid], m)
	b.n++
}

// toOthers adds a notification of c that goes to its other participants:
// the group's, or the single chat's pair's.
func (b *noticeBook) toOthers(c *conv, by string, ct int32, at int64, tips any) {
	if c.group != nil {
		b.add(store.NotificationConversationID(c.cid), c, by, c.group.ID, bucket.SessionGroup, ct, at, tips)
		return
	}
	other := c.pair[0]
	if other == by {
		other = c.pair[1]
	}
	pair := []string{by, other}
	slices.Sort(pair)
	b.add("n_"+pair[0]+"_"+pair[1], c, by, other, bucket.SessionSingle, ct, at, tips)
}

type revokeTips struct {
	RevokerUserID  string `json:"revokerUserID"`
	ClientMsgID    string `json:"clientMsgID"`
	RevokeTime     int64  `json:"revokeTime"`
	SesstionType   int32  `json:"sesstionType"` // sic, as sdkws spells it
	Seq            int64  `json:"seq"`
	ConversationID string `json:"conversationID"`
	IsAdminRevoke  bool   `json:"isAdminRevoke"` // an app admin's: the demo has none
}

type deleteTips struct {
	UserID         string  `json:"userID"`
	ConversationID string  `json:"conversationID"`
	Seqs           []int64 `json:"seqs"`
}

type readTips struct {
	MarkAsReadUserID string  `json:"markAsReadUserID"`
	ConversationID   string  `json:"conversationID"`
	Seqs             []int64 `json:"seqs"`
	HasReadSeq       int64   `json:"hasReadSeq"`
}

// revoked tells of m's revoke: the server sends it 3 ms after it stamps
// the record, as the recorded ones were.
func (b *noticeBook) revoked(c *conv, m *bucket.MsgData, rev bucket.Revoke) {
	b.toOthers(c, rev.UserID, bucket.ContentRevoked, rev.Time+3, revokeTips{RevokerUserID: rev.UserID,
		ClientMsgID: m.ClientMsgID, RevokeTime: rev.Time, SesstionType: m.SessionType, Seq: m.Seq, ConversationID: c.cid})
}

// deleted tells of uid's delete of seq at ms, in uid's own notification
// conversation.
func (b *noticeBook) deleted(c *conv, uid string, seq, at int64) {
	b.add(store.SelfNotificationID(uid), c, uid, uid, bucket.SessionSingle, bucket.ContentDeleteNotice, at,
		deleteTips{UserID: uid, ConversationID: c.cid, Seqs: []int64{seq}})
}

// readSeqsPerMark is how many seqs one read mark of the demo names at
// most: a long single chat is marked read in several calls.
const readSeqsPerMark = 1000

// reads tells of each participant's read marks, the calls writer.reads
// makes: in a group one seq, the read position; in a single chat every
// message received up to it, and it.
func (b *noticeBook) reads(p *planner, c *conv) {
	for _, u := range c.users {
		top := c.readSeq[u]
		if top < 1 {
			continue
		}
		seqs := []int64{top}
		if c.group == nil {
			i := sort.Search(len(c.received[u]), func(i int) bool { return c.received[u][i] >= top })
			seqs = append(slices.Clone(c.received[u][:i]), top)
		}
		at := b.readAt(p, c, u, top)
		for from := 0; from < len(seqs); from += readSeqsPerMark {
			part := seqs[from:min(len(seqs), from+readSeqsPerMark)]
			b.toOthers(c, u, bucket.ContentReadReceipt, at, readTips{MarkAsReadUserID: u, ConversationID: c.cid,
				Seqs: part, HasReadSeq: part[len(part)-1]})
			at++
		}
	}
}

// readAt is when u's read mark up to top is made: a while after top was
// sent when top is among the newest messages, which every flush keeps in
// memory (windowTail) whatever the window; else as u left the group, or
// a while after the conversation's last message. So the same seed gives
// the same notifications however the conversation was written.
func (b *noticeBook) readAt(p *planner, c *conv, u string, top int64) int64 {
	delay := int64(30+b.rng.IntN(3600)) * 1000
	switch {
	case top > c.top()-windowTail && c.msgs[top-c.base-1] != nil:
		return c.msgs[top-c.base-1].SendTime + delay
	case c.leftAt[u] > 0:
		return c.leftAt[u]
	}
	return p.clock + delay
}

// conversations are the notification conversations gathered, in ID
// order, each with its messages at seqs in the order of their times.
func (b *noticeBook) conversations() []*conv {
	ids := make([]string, 0, len(b.msgs))
	for id := range b.msgs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]*conv, 0, len(ids))
	for _, id := range ids {
		msgs := b.msgs[id]
		slices.SortStableFunc(msgs, func(x, y *bucket.MsgData) int { return cmp.Compare(x.SendTime, y.SendTime) })
		for i, m := range msgs {
			m.Seq = int64(i + 1)
		}
		c := newConv(id, bucket.SessionNotification)
		c.msgs, c.count, c.membersKnown = msgs, len(msgs), true
		out = append(out, c)
	}
	return out
}
