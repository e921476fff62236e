package bucket

import (
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The document model of OpenIM's msg collection. BSON names and types are the
// storage contract; Go field names are the Redis JSON contract (MSG_CACHE
// values are encoded with encoding/json and no tags). Pointers and slices are
// never omitted: an absent value is stored as null, as the server does.

// Doc is one bucket: 100 slots, slot i holding seq index*100+i+1.
type Doc struct {
	DocID string  `bson:"doc_id"`
	Msgs  []*Slot `bson:"msgs"`
}

// Slot is one position of a bucket. IsRead here is the real read flag.
type Slot struct {
	Msg     *MsgData `bson:"msg"`
	Revoke  *Revoke  `bson:"revoke"`
	DelList []string `bson:"del_list"`
	IsRead  bool     `bson:"is_read"`
}

// Revoke records who withdrew a message.
type Revoke struct {
	Role     int32  `bson:"role"`
	UserID   string `bson:"user_id"`
	Nickname string `bson:"nickname"`
	Time     int64  `bson:"time"`
}

// MsgData is a stored message. MsgData.IsRead is never used by the server.
type MsgData struct {
	SendID           string          `bson:"send_id"`
	RecvID           string          `bson:"recv_id"`
	GroupID          string          `bson:"group_id"`
	ClientMsgID      string          `bson:"client_msg_id"`
	ServerMsgID      string          `bson:"server_msg_id"`
	SenderPlatformID int32           `bson:"sender_platform_id"`
	SenderNickname   string          `bson:"sender_nickname"`
	SenderFaceURL    string          `bson:"sender_face_url"`
	SessionType      int32           `bson:"session_type"`
	MsgFrom          int32           `bson:"msg_from"`
	ContentType      int32           `bson:"content_type"`
	Content          string          `bson:"content"`
	Seq              int64           `bson:"seq"`
	SendTime         int64           `bson:"send_time"`
	CreateTime       int64           `bson:"create_time"`
	Status           int32           `bson:"status"`
	IsRead           bool            `bson:"is_read"`
	Options          map[string]bool `bson:"options"`
	OfflinePush      *OfflinePush    `bson:"offline_push"`
	AtUserIDList     []string        `bson:"at_user_id_list"`
	AttachedInfo     string          `bson:"attached_info"`
	Ex               string          `bson:"ex"`
}

// OfflinePush is the push-notification block of a message.
type OfflinePush struct {
	Title         string `bson:"title"`
	Desc          string `bson:"desc"`
	Ex            string `bson:"ex"`
	IOSPushSound  string `bson:"ios_push_sound"`
	IOSBadgeCount bool   `bson:"ios_badge_count"`
}

// Session types, message statuses and senders of OpenIM.
const (
	SessionSingle       int32 = 1
	SessionWriteGroup   int32 = 2 // legacy group chat, "g_" IDs
	SessionGroup        int32 = 3
	SessionNotification int32 = 4

	StatusSending  int32 = 1
	StatusSent     int32 = 2
	StatusFailed   int32 = 3
	StatusDeleted  int32 = 4
	StatusFiltered int32 = 5

	MsgFromUser   int32 = 100
	MsgFromSystem int32 = 200

	// ContentRevoked is the content type a revoked message is shown with
	// (OpenIM's MsgRevokeNotification); a message stored with it cannot be
	// revoked again.
	ContentRevoked int32 = 2101
	// ContentDeleteNotice and ContentReadReceipt are the notifications the
	// server sends after a delete (2102) and a mark read (2200).
	ContentDeleteNotice int32 = 2102
	ContentReadReceipt  int32 = 2200
)

// EmptySlot is the slot the server writes for a seq it has no message for.
func EmptySlot() *Slot { return &Slot{DelList: []string{}} }

// NewDoc is a bucket with every slot empty.
func NewDoc(docID string) *Doc {
	d := &Doc{DocID: docID, Msgs: make([]*Slot, BucketSize)}
	for i := range d.Msgs {
		d.Msgs[i] = EmptySlot()
	}
	return d
}

// Names of the other collections and their records.
const (
	CollMsg          = "msg"
	CollSeq          = "seq"
	CollSeqUser      = "seq_user"
	CollConversation = "conversation"
	CollUser         = "user"
	CollGroup        = "group"
	CollGroupMember  = "group_member"
)

// SeqRecord is a conversation's seq document. MaxSeq is a reserved upper
// bound, not necessarily the last seq used.
type SeqRecord struct {
	ConversationID string `bson:"conversation_id"`
	MaxSeq         int64  `bson:"max_seq"`
	MinSeq         int64  `bson:"min_seq"`
}

// SeqUser is one user's window and read position in a conversation.
type SeqUser struct {
	UserID         string `bson:"user_id"`
	ConversationID string `bson:"conversation_id"`
	MinSeq         int64  `bson:"min_seq"`
	MaxSeq         int64  `bson:"max_seq"`
	ReadSeq        int64  `bson:"read_seq"`
}

// Conversation is one entry of a user's conversation list.
type Conversation struct {
	OwnerUserID      string `bson:"owner_user_id"`
	ConversationID   string `bson:"conversation_id"`
	ConversationType int32  `bson:"conversation_type"`
	UserID           string `bson:"user_id"`
	GroupID          string `bson:"group_id"`
	MinSeq           int64  `bson:"min_seq"`
	MaxSeq           int64  `bson:"max_seq"`
	IsPinned         bool   `bson:"is_pinned"`
	CreateTime       int64  `bson:"create_time"` // unix ms: when the owner got the conversation; 0 unknown
}

// User names a user.
type User struct {
	UserID   string `bson:"user_id"`
	Nickname string `bson:"nickname"`
	FaceURL  string `bson:"face_url"`
	// AppMangerLevel (OpenIM's spelling, mgo model.User) is the role a
	// revoke in a single chat records.
	AppMangerLevel int32 `bson:"app_manger_level"`
}

// Group names a group.
type Group struct {
	GroupID   string `bson:"group_id"`
	GroupName string `bson:"group_name"`
}

// GroupMember is one member of a group. RoleLevel: RoleOwner, RoleAdmin or RoleMember.
// JoinTime is a BSON date, as OpenIM's model.GroupMember stores it.
type GroupMember struct {
	GroupID   string    `bson:"group_id"`
	UserID    string    `bson:"user_id"`
	Nickname  string    `bson:"nickname"`
	RoleLevel int32     `bson:"role_level"`
	JoinTime  time.Time `bson:"join_time"`
}

// Member role levels: OpenIM's constant.GroupOwner, GroupAdmin and
// GroupOrdinaryUsers.
const (
	RoleOwner  int32 = 100
	RoleAdmin  int32 = 60
	RoleMember int32 = 20
)

// RoleName is OpenIM's name of a group_member role_level, as chatlens says
// it wherever a role is shown: owner (100), admin (60), ordinary member (20);
// 0, which an app admin's revoke records, is none; any other level by its
// number.
func RoleName(level int32) string {
	switch level {
	case RoleOwner:
		return "owner"
	case RoleAdmin:
		return "admin"
	case RoleMember:
		return "ordinary member"
	case 0:
		return "0, none"
	}
	return "level " + strconv.Itoa(int(level))
}

// UniqueKey is the unique key of each collection chatlens knows; documents
// of other collections are keyed by _id, and so is a seq_user document that
// names one (KeyedByID). Import replaces a document with the same key, so
// importing an export twice leaves one copy.
func UniqueKey(coll string) []string {
	switch coll {
	case CollMsg:
		return []string{"doc_id"}
	case CollSeq:
		return []string{"conversation_id"}
	case CollSeqUser:
		return []string{"user_id", "conversation_id"}
	case CollConversation:
		return []string{"owner_user_id", "conversation_id"}
	case CollUser:
		return []string{"user_id"}
	case CollGroup:
		return []string{"group_id"}
	case CollGroupMember:
		return []string{"group_id", "user_id"}
	}
	return []string{"_id"}
}

// KeyedByID reports a document of coll that import keys on its _id rather
// than on UniqueKey(coll): a seq_user document that names its _id. OpenIM's
// index on (user_id, conversation_id) is not unique and the server itself
// leaves two documents for one pair (pkg/common/storage/database/mgo/seq_user.go
// upserts on it): an export holds both, each under its own _id, and
// mongoimport stores both. A seq_user document without an _id is keyed on
// the pair.
func KeyedByID(coll string, doc bson.Raw) bool {
	if coll != CollSeqUser {
		return false
	}
	_, err := doc.LookupErr("_id")
	return err == nil
}

// SeqUserID is the _id of the seq_user document chatlens stores for a pair
// that has none: derived from the pair, so that of two writers racing to
// store it the unique _id index refuses the second, which then updates the
// first (a driver ObjectID would let both in). The length of uid first
// keeps two pairs from ever sharing one.
func SeqUserID(uid, cid string) string {
	return strconv.Itoa(len(uid)) + ":" + uid + ":" + cid
}

// SeqID is the _id of the seq document chatlens stores for a conversation
// that has none, for the same reason as SeqUserID: OpenIM's index on
// seq {conversation_id} is not unique either. OpenIM's own seq documents
// have ObjectID _ids, which no string equals.
func SeqID(cid string) string { return cid }

// Collections lists the collections chatlens reads, msg first.
var Collections = []string{CollMsg, CollSeq, CollSeqUser, CollConversation, CollUser, CollGroup, CollGroupMember}

// OpenIMCollections are every collection OpenIM Server creates
// (pkg/common/storage/database/name.go, and msg): import and export take
// these; another name is most likely a typo ("msgs", "users").
var OpenIMCollections = []string{"black", CollConversation, "conversation_version", "friend", "friend_request",
	"friend_version", CollGroup, "group_join_version", CollGroupMember, "group_member_version", "group_request",
	"log", CollMsg, "s3", CollSeq, CollSeqUser, "stream_msg", "cache", CollUser}
