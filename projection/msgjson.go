package projection

import (
	"bytes"
	"encoding/json"

	"github.com/chatlens/chatlens/store/bucket"
)

// sdkMsg is OpenIM's sdkws.MsgData in JSON, as /msg/pull_msg_by_seq gives
// it (shared/openim-recorded/pull_*.json) and as a quote embeds it
// (quotedMsg, quote.go): every field, in the server's order, options left
// out when it has none, the others null or empty as the server writes them.
// sdkMsgOf fills it from the stored message.
type sdkMsg struct {
	SendID           string           `json:"sendID"`
	RecvID           string           `json:"recvID"`
	GroupID          string           `json:"groupID"`
	ClientMsgID      string           `json:"clientMsgID"`
	ServerMsgID      string           `json:"serverMsgID"`
	SenderPlatformID int32            `json:"senderPlatformID"`
	SenderNickname   string           `json:"senderNickname"`
	SenderFaceURL    string           `json:"senderFaceURL"`
	SessionType      int32            `json:"sessionType"`
	MsgFrom          int32            `json:"msgFrom"`
	ContentType      int32            `json:"contentType"`
	Content          *string          `json:"content"`
	Seq              int64            `json:"seq"`
	SendTime         int64            `json:"sendTime"`
	CreateTime       int64            `json:"createTime"`
	Status           int32            `json:"status"`
	IsRead           bool             `json:"isRead"`
	Options          map[string]bool  `json:"options,omitempty"`
	OfflinePushInfo  *offlinePushInfo `json:"offlinePushInfo"`
	AtUserIDList     []string         `json:"atUserIDList"`
	AttachedInfo     string           `json:"attachedInfo"`
	Ex               string           `json:"ex"`
}

// sdkMsgOf is m in OpenIM's JSON names, its content given.
func sdkMsgOf(m *bucket.MsgData) sdkMsg {
	content := m.Content
	return sdkMsg{
		SendID: m.SendID, RecvID: m.RecvID, GroupID: m.GroupID, ClientMsgID: m.ClientMsgID, ServerMsgID: m.ServerMsgID,
		SenderPlatformID: m.SenderPlatformID, SenderNickname: m.SenderNickname, SenderFaceURL: m.SenderFaceURL,
		SessionType: m.SessionType, MsgFrom: m.MsgFrom, ContentType: m.ContentType, Content: &content,
		Seq: m.Seq, SendTime: m.SendTime, CreateTime: m.CreateTime, Status: m.Status, IsRead: m.IsRead,
		Options: m.Options, OfflinePushInfo: offlinePushOf(m.OfflinePush), AtUserIDList: m.AtUserIDList,
		AttachedInfo: m.AttachedInfo, Ex: m.Ex,
	}
}

// msgDataJSON is a row of the pull: the message (content null for a hole
// and for a message deleted for the viewer), then chatlens's own fields.
type msgDataJSON struct {
	sdkMsg
	DocID     string `json:"docID"`
	Index     int    `json:"index"`
	Malformed string `json:"malformed,omitempty"` // the bucket breaks the contract as a whole (MalformedBucket)
}

// offlinePushOf is the stored push block as sdkws.OfflinePushInfo
// (offlinePushInfo, quote.go); signalInfo is not stored.
func offlinePushOf(p *bucket.OfflinePush) *offlinePushInfo {
	if p == nil {
		return nil
	}
	return &offlinePushInfo{Title: p.Title, Desc: p.Desc, Ex: p.Ex, IOSPushSound: p.IOSPushSound, IOSBadgeCount: p.IOSBadgeCount}
}

// msgData is m as the pull gives it. A hole is OpenIM's stand-in: only
// seq, status 4 and the send time of the message before it (mgo/msg.go FindSeqs).
func (m Message) msgData() msgDataJSON {
	var broken string
	if m.BucketProblem != "" {
		broken = MalformedBucket(m.DocID, m.BucketProblem)
	}
	if m.Hole {
		return msgDataJSON{sdkMsg: sdkMsg{Seq: m.Seq, Status: bucket.StatusDeleted, SendTime: m.SendTime}, DocID: m.DocID, Index: m.Index, Malformed: broken}
	}
	d := msgDataJSON{sdkMsg: sdkMsgOf(&m.MsgData), DocID: m.DocID, Index: m.Index, Malformed: broken}
	// Deleted for the viewer: the pull has content null, unless a revoke
	// replaced it (rule 3 wins on content).
	if m.DeletedForViewer && !m.Revoked {
		d.Content = nil
	}
	return d
}

// MarshalJSON writes m as OpenIM's pull gives it (msgDataJSON). HTML
// characters are left as they are: the caller's encoder decides whether to
// escape them.
func (m Message) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m.msgData()); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
