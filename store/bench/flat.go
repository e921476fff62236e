package bench

import (
	"context"
	"sync/atomic"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// FlatDoc is the one-document-per-message layout the bucket design replaces:
// the message's fields at the top level beside the slot's per-message state,
// unique on (conversation_id, seq). MsgData.is_read is left out: the slot's
// is_read is the real flag and a document cannot hold the name twice.
type FlatDoc struct {
	ConversationID   string              `bson:"conversation_id"`
	Seq              int64               `bson:"seq"`
	SendID           string              `bson:"send_id"`
	RecvID           string              `bson:"recv_id"`
	GroupID          string              `bson:"group_id"`
	ClientMsgID      string              `bson:"client_msg_id"`
	ServerMsgID      string              `bson:"server_msg_id"`
	SenderPlatformID int32               `bson:"sender_platform_id"`
	SenderNickname   string              `bson:"sender_nickname"`
	SenderFaceURL    string              `bson:"sender_face_url"`
	SessionType      int32               `bson:"session_type"`
	MsgFrom          int32               `bson:"msg_from"`
	ContentType      int32               `bson:"content_type"`
	Content          string              `bson:"content"`
	SendTime         int64               `bson:"send_time"`
	CreateTime       int64               `bson:"create_time"`
	Status           int32               `bson:"status"`
	Options          map[string]bool     `bson:"options"`
	OfflinePush      *bucket.OfflinePush `bson:"offline_push"`
	AtUserIDList     []string            `bson:"at_user_id_list"`
	AttachedInfo     string              `bson:"attached_info"`
	Ex               string              `bson:"ex"`
	Revoke           *bucket.Revoke      `bson:"revoke"`
	DelList          []string            `bson:"del_list"`
	IsRead           bool                `bson:"is_read"`
}

// NewFlatDoc stores m of conversation cid as its own document, with the
// state of an empty slot (not revoked, deleted for nobody, unread).
func NewFlatDoc(cid string, m *bucket.MsgData) *FlatDoc {
	return &FlatDoc{ConversationID: cid, Seq: m.Seq, SendID: m.SendID, RecvID: m.RecvID, GroupID: m.GroupID,
		ClientMsgID: m.ClientMsgID, ServerMsgID: m.ServerMsgID, SenderPlatformID: m.SenderPlatformID,
		SenderNickname: m.SenderNickname, SenderFaceURL: m.SenderFaceURL, SessionType: m.SessionType,
		MsgFrom: m.MsgFrom, ContentType: m.ContentType, Content: m.Content, SendTime: m.SendTime,
		CreateTime: m.CreateTime, Status: m.Status, Options: m.Options, OfflinePush: m.OfflinePush,
		AtUserIDList: m.AtUserIDList, AttachedInfo: m.AttachedInfo, Ex: m.Ex, DelList: []string{}}
}

// FlatStore is the flat layout on one backend. Each method is one query,
// counted by the store itself (a MongoDB cursor's getMore is one more round
// trip), so its figures compare with Counting's for the bucket layout.
type FlatStore interface {
	// Insert stores docs in one round trip (InsertMany / one transaction).
	Insert(ctx context.Context, docs []*FlatDoc) error
	// Range reads seqs from..to of cid in ascending order.
	Range(ctx context.Context, cid string, from, to int64) ([]bson.Raw, error)
	// Before reads up to limit messages of cid below seq before, newest first.
	Before(ctx context.Context, cid string, before int64, limit int) ([]bson.Raw, error)
	// Get reads the given seqs of cid ($in), in any order.
	Get(ctx context.Context, cid string, seqs []int64) ([]bson.Raw, error)
	// Storage reports the layout's size; figures it cannot know stay nil.
	Storage(ctx context.Context) (Storage, error)
	// Counts is what crossed the wire so far.
	Counts() Counts
	Close(ctx context.Context) error
}

// counter is the round-trip, document and byte counter flat stores share.
type counter struct {
	roundTrips, documents, bytes atomic.Int64
}

func (c *counter) trip() { c.roundTrips.Add(1) }

func (c *counter) read(raw []byte) {
	c.documents.Add(1)
	c.bytes.Add(int64(len(raw)))
}

func (c *counter) Counts() Counts {
	return Counts{c.roundTrips.Load(), c.documents.Load(), c.bytes.Load()}
}
