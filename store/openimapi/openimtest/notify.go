package openimtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// The notification messages the server sends after a revoke (2101), a
// delete for me with IsSyncSelf (2102) and a mark read (2200), as
// shared/openim-recorded's msg.json holds them in n_g1, n_u1_u2 and
// n_u2_u2: pkg/notification/msg.go send builds them (sent by the acting
// user, msg_from 200, content {"detail": "<the tips as JSON>"}, group_id
// set in a group), and pkg/msgprocessor GetNotificationConversationIDByMsg
// names the conversation: n_<group>, or n_<the two users, sorted>. The
// server queues them and stores them after it answers; a send that fails
// leaves none (the server's log: "SendMsg failed"), which SetNotificationDrops
// makes happen.

// SetNotificationDrops sets which notifications the stand-in does not
// store: those drop reports true for (the endpoint's path, the seqs the
// notification is about). nil stores them all.
func (s *Server) SetNotificationDrops(drop func(path string, seqs []int64) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drops = drop
}

// notification is one notification message to store.
type notification struct {
	path           string
	sendID, recvID string
	sessionType    int32
	contentType    int32
	detail         any
	about          []int64 // the seqs it is about
}

// revokeTips is sdkws.RevokeMsgTips as the server writes it.
type revokeTips struct {
	RevokerUserID  string `json:"revokerUserID"`
	ClientMsgID    string `json:"clientMsgID"`
	RevokeTime     int64  `json:"revokeTime"`
	SesstionType   int32  `json:"sesstionType"`
	Seq            int64  `json:"seq"`
	ConversationID string `json:"conversationID"`
	IsAdminRevoke  bool   `json:"isAdminRevoke"`
}

// deleteTips is sdkws.DeleteMsgsTips.
type deleteTips struct {
	UserID         string  `json:"userID"`
	ConversationID string  `json:"conversationID"`
	Seqs           []int64 `json:"seqs"`
}

// readTips is sdkws.MarkAsReadTips.
type readTips struct {
	MarkAsReadUserID string  `json:"markAsReadUserID"`
	ConversationID   string  `json:"conversationID"`
	Seqs             []int64 `json:"seqs"`
	HasReadSeq       int64   `json:"hasReadSeq"`
}

// notify stores n at the next seq of its notification conversation.
func (s *Server) notify(ctx context.Context, n notification) error {
	s.mu.Lock()
	drop := s.drops
	s.mu.Unlock()
	if drop != nil && drop(n.path, n.about) {
		return nil
	}
	detail, err := json.Marshal(n.detail)
	if err != nil {
		return err
	}
	content, err := json.Marshal(map[string]string{"detail": string(detail)})
	if err != nil {
		return err
	}
	cid := "n_" + n.recvID
	msg := &bucket.MsgData{SendID: n.sendID, RecvID: n.recvID, ClientMsgID: randomID(), ServerMsgID: randomID(),
		SessionType: n.sessionType, MsgFrom: bucket.MsgFromSystem, ContentType: n.contentType, Content: string(content),
		Options: notificationOptions(), OfflinePush: &bucket.OfflinePush{}}
	if n.sessionType == bucket.SessionGroup {
		msg.GroupID = n.recvID
	} else {
		pair := []string{n.sendID, n.recvID}
		slices.Sort(pair)
		cid = "n_" + strings.Join(pair, "_")
	}
	msg.SendTime = time.Now().UnixMilli()
	msg.CreateTime = msg.SendTime
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	// The next seq after the newest stored: the server's MALLOC_SEQ, which
	// the stand-in does not keep (seq.max_seq is the end of the block it
	// reserved: 53 for n_g1's 16 notifications in the recording).
	ws, err := s.st.Windows(ctx, n.sendID, []string{cid}, nil)
	if err != nil {
		return err
	}
	_, err = s.st.InsertMessages(ctx, cid, ws[cid].EndSeq+1, []*bucket.MsgData{msg})
	return err
}

// notificationOptions are the options of the recorded notifications.
func notificationOptions() map[string]bool {
	return map[string]bool{"senderSync": true, "notPrivate": false, "isNotNotification": false, "reactionFromCache": false,
		"conversationUpdate": false, "senderConversationUpdate": false, "isSendMsg": false, "history": true,
		"persistent": true, "offlinePush": false, "unreadCount": false}
}

// randomID is a message ID as the recording's: 32 hex digits.
func randomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
