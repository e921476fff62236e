package bench

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// FlatDoc is the one-document-per-message layout the bucket design replaces:
// the message's fields at the top level beside the slot's per-message state,
// unique on (conversation_id, seq). The message's is_read holds the slot's
// flag, the real one (MsgData's own is never used): a document cannot hold
// the name twice.
type FlatDoc struct {
	ConversationID string `bson:"conversation_id"`
	bucket.MsgData `bson:",inline"`
	Revoke         *bucket.Revoke `bson:"revoke"`
	DelList        []string       `bson:"del_list"`
}

// NewFlatDoc stores m of conversation cid as its own document, with the
// state of an empty slot (not revoked, deleted for nobody, unread).
func NewFlatDoc(cid string, m *bucket.MsgData) *FlatDoc {
	d := &FlatDoc{ConversationID: cid, MsgData: *m, DelList: []string{}}
	d.IsRead = false
	return d
}

// FlatStore is the flat layout on one backend. Each method is one query;
// RoundTrips counts what crossed (see roundtrips.go: a MongoDB cursor's
// getMore is one more), so its figures compare with Counting's for the
// bucket layout.
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
	// RoundTrips is the number of queries sent so far.
	RoundTrips() int64
	Close(ctx context.Context) error
}
