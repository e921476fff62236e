package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

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

// noticeEnd is where ncid's messages end now, before the write is sent:
// its notifications come after it.
func (s *lookupReads) noticeEnd(ctx context.Context, by, ncid string) (int64, error) {
	ws, err := s.Windows(ctx, by, []string{ncid}, nil)
	if err != nil {
		return 0, err
	}
	return ws[ncid].EndSeq, nil
}

// findNotices looks in ncid after seq from for the notifications of req's
// seqs, re-reading until each has one or the settle time is up; it returns
// those found and the seqs none was found for.
func (s *lookupReads) findNotices(ctx context.Context, req WriteRequest, ncid string, from int64, seqs []int64) ([]Notice, []int64, error) {
	ctx = context.WithoutCancel(ctx) // what the server did stands: say what it sent
	deadline := time.Now().Add(s.apiSettle)
	for {
		found, missing, err := s.notices(ctx, req, ncid, from, seqs)
		if err != nil || len(missing) == 0 || !time.Now().Before(deadline) {
			return found, missing, err
		}
		time.Sleep(settlePoll)
	}
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

// NoticeWords names where the notifications of a write through the API
// are, runs joined: "seq 6: 2101 in n_g1 seq 45; seq 7-9: 2101 in n_g1 seq
// 46-48"; "" when none was found.
func (a *APIDone) NoticeWords() string {
	var parts []string
	for i := 0; i < len(a.Notices); {
		n := a.Notices[i]
		j := i + 1
		// One seq per notification, both rising by one: a run.
		for len(n.About) == 1 && j < len(a.Notices) && len(a.Notices[j].About) == 1 && a.Notices[j].Type == n.Type &&
			a.Notices[j].Seq == n.Seq+int64(j-i) && a.Notices[j].About[0] == n.About[0]+int64(j-i) {
			j++
		}
		about := n.About
		if j > i+1 {
			about = seqRange(n.About[0], j-i)
		}
		at := fmt.Sprint(n.Seq)
		if j > i+1 {
			at = fmt.Sprintf("%d-%d", n.Seq, a.Notices[j-1].Seq)
		}
		parts = append(parts, fmt.Sprintf("seq %s: %d in %s seq %s", FormatSeqs(about), n.Type, a.NoticeCid, at))
		i = j
	}
	return strings.Join(parts, "; ")
}

// UnnoticedWords says which seqs of a write through the API no
// notification was found for, and what that means; "" when every one has
// one.
func (a *APIDone) UnnoticedWords() string {
	if len(a.Unnoticed) == 0 {
		return ""
	}
	switch {
	case a.NoticeErr != nil:
		return fmt.Sprintf("the notifications of seq %s in %s could not be read: %v", FormatSeqs(a.Unnoticed), a.NoticeCid, a.NoticeErr)
	case a.NoticeCid == "":
		return "no notification conversation to look in for seq " + FormatSeqs(a.Unnoticed)
	}
	return fmt.Sprintf("no notification in %s for seq %s: devices that already hold those messages will not learn of the change (a device does not pull a seq it holds)",
		a.NoticeCid, FormatSeqs(a.Unnoticed))
}

// NoticeSummary is what a write through the API told devices, for a
// status line: where its notifications are, or which seqs have none.
func (a *APIDone) NoticeSummary() string {
	if words := a.UnnoticedWords(); words != "" {
		return words
	}
	return "notified: " + a.NoticeWords()
}
