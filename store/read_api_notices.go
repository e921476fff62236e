package store

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// After a write through the API the server sends a notification message
// into a notification conversation (revoke 2101, delete 2102, mark read
// 2200): devices that already hold the messages learn of the change from
// it, as a device does not pull a seq it holds again. The server sends it
// from a queue after it answers, and a send can fail (its log: "SendMsg
// failed"): 500 revokes once left 498 notifications. So chatlens looks for
// them rather than assume them.

// Notice is one notification of a write: its content type, its seq in the
// notification conversation, and the seqs of the write it is about.
type Notice struct {
	Type  int32
	Seq   int64
	About []int64
}

// noticeConversation is where the server puts the notification of req
// (pkg/msgprocessor GetNotificationConversationIDByMsg of the message
// pkg/notification/msg.go sends): for a revoke (revoke.go) and a mark read
// (as_read.go) n_<group> in a group, n_<the two users, sorted> in a single
// chat, the revoker and the message's receiver for a revoke (recv, when a
// slot read gives it); for a delete for me sent with IsSyncSelf
// (delete.go) the user's own n_<user>_<user>. "" when there is none (a
// write in a notification conversation itself).
func noticeConversation(req WriteRequest, slots map[int64]bucket.StoredSlot) string {
	if bucket.IsNotificationConversation(req.Cid) {
		return ""
	}
	if req.Action == ActionDelete {
		return "n_" + req.By + "_" + req.By
	}
	if g := GroupOf(req.Cid); g != "" {
		return "n_" + g
	}
	if kind, _, _ := SplitConversationID(req.Cid); kind != bucket.SessionSingle {
		return ""
	}
	// The other user of the pair: a single-chat ID whose user IDs hold "_"
	// splits more than one way ("si_a_x_b_y"), and only one names req.By.
	pairs := PairsOf(req.Cid)
	other := otherUser(pairs, req.By)
	if other == "" { // the app admin: the notification goes from them to the message's receiver
		for _, st := range slots {
			if st.Slot != nil && st.Slot.Msg != nil && st.Slot.Msg.RecvID != "" {
				other = st.Slot.Msg.RecvID
				break
			}
		}
	}
	if other == "" && len(pairs) == 1 {
		other = pairs[0][0]
	}
	if other == "" {
		return ""
	}
	pair := []string{req.By, other}
	slices.Sort(pair)
	return "n_" + strings.Join(pair, "_")
}

// otherUser is the user paired with by in the ways a single-chat ID
// splits: "" when no split names by, or the splits that do disagree.
func otherUser(pairs [][2]string, by string) string {
	other := ""
	for _, p := range pairs {
		o := ""
		switch by {
		case p[0]:
			o = p[1]
		case p[1]:
			o = p[0]
		default:
			continue
		}
		if other != "" && other != o {
			return ""
		}
		other = o
	}
	return other
}

// noticeType is the content type of the notification of action.
func noticeType(action string) int32 {
	switch action {
	case ActionRevoke:
		return bucket.ContentRevoked
	case ActionDelete:
		return bucket.ContentDeleteNotice
	}
	return bucket.ContentReadReceipt
}

// notices reads ncid's messages after from once and matches them to seqs.
func (s *lookupReads) notices(ctx context.Context, req WriteRequest, ncid string, from int64, seqs []int64) ([]Notice, []int64, error) {
	ws, err := s.Windows(ctx, req.By, []string{ncid}, nil)
	if err != nil {
		return nil, nil, err
	}
	end := ws[ncid].EndSeq
	var found []Notice
	told := map[int64]bool{}
	for first := from + 1; first <= end; first += int64(bucket.BucketSize) {
		last := min(end, first+int64(bucket.BucketSize)-1)
		slots, err := s.Slots(ctx, ncid, seqRange(first, int(last-first+1)), end)
		if err != nil {
			return nil, nil, err
		}
		for seq := first; seq <= last; seq++ {
			st := slots[seq]
			if st.IsHole() || st.Slot.Msg.ContentType != noticeType(req.Action) {
				continue
			}
			about := noticeAbout(req, st.Slot.Msg.Content, seqs)
			if len(about) == 0 {
				continue
			}
			found = append(found, Notice{Type: st.Slot.Msg.ContentType, Seq: seq, About: about})
			for _, a := range about {
				told[a] = true
			}
		}
	}
	var missing []int64
	for _, seq := range seqs {
		if !told[seq] {
			missing = append(missing, seq)
		}
	}
	return found, missing, nil
}

// noticeAbout is which of seqs a notification's content says req's write
// was done to: sdkws.RevokeMsgTips, DeleteMsgsTips and MarkAsReadTips as
// the server writes them ({"detail": "<JSON>"}); none for another
// conversation's, or another user's delete or read.
func noticeAbout(req WriteRequest, content string, seqs []int64) []int64 {
	var elem struct {
		Detail string `json:"detail"`
	}
	var tips struct {
		ConversationID   string  `json:"conversationID"`
		Seq              int64   `json:"seq"`
		Seqs             []int64 `json:"seqs"`
		UserID           string  `json:"userID"`
		MarkAsReadUserID string  `json:"markAsReadUserID"`
	}
	if json.Unmarshal([]byte(content), &elem) != nil || json.Unmarshal([]byte(elem.Detail), &tips) != nil || tips.ConversationID != req.Cid {
		return nil
	}
	named := tips.Seqs
	switch req.Action {
	case ActionRevoke:
		named = []int64{tips.Seq}
	case ActionDelete:
		if tips.UserID != req.By {
			return nil
		}
	case ActionRead:
		if tips.MarkAsReadUserID != req.By {
			return nil
		}
	}
	var out []int64
	for _, seq := range named {
		if slices.Contains(seqs, seq) && !slices.Contains(out, seq) {
			out = append(out, seq)
		}
	}
	return out
}
