package projection

import (
	"encoding/json"

	"github.com/chatlens/chatlens/store/bucket"
)

// revokedContent is OpenIM's MessageRevokedContent; field order is the
// contract (rule 3 of the package doc).
type revokedContent struct {
	RevokerID                   string `json:"revokerID"`
	RevokerRole                 int32  `json:"revokerRole"`
	ClientMsgID                 string `json:"clientMsgID"`
	RevokerNickname             string `json:"revokerNickname"`
	RevokeTime                  int64  `json:"revokeTime"`
	SourceMessageSendTime       int64  `json:"sourceMessageSendTime"`
	SourceMessageSendID         string `json:"sourceMessageSendID"`
	SourceMessageSenderNickname string `json:"sourceMessageSenderNickname"`
	SessionType                 int32  `json:"sessionType"`
	Seq                         int64  `json:"seq"`
	Ex                          string `json:"ex"`
}

// notificationElem is the content of every notification: detail is JSON
// carried as a string inside JSON.
type notificationElem struct {
	Detail string `json:"detail"`
}

// RevokeContent is the content a revoked message is shown with:
// {"detail":"<JSON of the revoke>"}.
func RevokeContent(msg *bucket.MsgData, r *bucket.Revoke) string {
	if msg == nil || r == nil {
		return ""
	}
	detail, _ := json.Marshal(revokedContent{
		RevokerID:                   r.UserID,
		RevokerRole:                 r.Role,
		ClientMsgID:                 msg.ClientMsgID,
		RevokerNickname:             r.Nickname,
		RevokeTime:                  r.Time,
		SourceMessageSendTime:       msg.SendTime,
		SourceMessageSendID:         msg.SendID,
		SourceMessageSenderNickname: msg.SenderNickname,
		SessionType:                 msg.SessionType,
		Seq:                         msg.Seq,
		Ex:                          msg.Ex,
	})
	content, _ := json.Marshal(notificationElem{Detail: string(detail)})
	return string(content)
}
