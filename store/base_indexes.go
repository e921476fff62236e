package store

import (
	"slices"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// IndexSpec is one index as OpenIM Server creates it: collection, name,
// ascending keys in order, uniqueness.
type IndexSpec struct {
	Coll   string
	Name   string
	Keys   []string
	Unique bool
}

// openIMIndex builds a spec named as the driver names it when no name is
// given ("user_id_1_conversation_id_1"): OpenIM never sets a name.
func openIMIndex(coll string, unique bool, keys ...string) IndexSpec {
	return IndexSpec{Coll: coll, Name: IndexName(keys), Keys: keys, Unique: unique}
}

// OpenIMIndexes are the indexes OpenIM Server creates at start-up on the
// collections chatlens reads (open-im-server pkg/common/storage/database/mgo:
// NewMsgMongo, NewSeqConversationMongo, NewSeqUserMongo,
// NewConversationMongo, NewUserMongo, NewGroupMongo, NewGroupMember). seq
// and seq_user are not unique there; creating them unique (or under another
// name) would make MongoDB refuse OpenIM's own createIndexes, code 85/86.
var OpenIMIndexes = []IndexSpec{
	openIMIndex(bucket.CollMsg, true, "doc_id"),
	openIMIndex(bucket.CollSeq, false, "conversation_id"),
	openIMIndex(bucket.CollSeqUser, false, "user_id", "conversation_id"),
	openIMIndex(bucket.CollConversation, true, "owner_user_id", "conversation_id"),
	openIMIndex(bucket.CollConversation, false, "user_id"),
	openIMIndex(bucket.CollConversation, false, "conversation_id"),
	openIMIndex(bucket.CollUser, true, "user_id"),
	openIMIndex(bucket.CollGroup, true, "group_id"),
	openIMIndex(bucket.CollGroupMember, true, "group_id", "user_id"),
}

// IndexName is the name MongoDB's drivers give an ascending index on keys.
func IndexName(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "_1"
	}
	return strings.Join(parts, "_")
}

// OpenIMIndexed is implemented by backends whose indexes OpenIM Server
// creates too (MongoDB): check compares them with OpenIMIndexes. The
// embedded store's key layouts are its own and are not compared.
type OpenIMIndexed interface {
	SharesIndexesWithOpenIM() bool
}

// IndexState is how the indexes of one collection stand against one of
// OpenIM's.
type IndexState int

const (
	IndexPresent  IndexState = iota // an index with the same keys exists (any name)
	IndexMissing                    // no index has these keys, and the name is free
	IndexConflict                   // same keys with other uniqueness, or the name on other keys
)

// CompareIndex says whether want is among have (the indexes of want.Coll),
// and which present index it conflicts with, if any.
func CompareIndex(want IndexSpec, have []IndexInfo) (IndexState, IndexInfo) {
	for _, ix := range have {
		if slices.Equal(ix.Keys, want.Keys) && ix.Unique == want.Unique && ix.Name == want.Name {
			return IndexPresent, ix
		}
	}
	for _, ix := range have {
		if slices.Equal(ix.Keys, want.Keys) {
			return IndexConflict, ix
		}
	}
	for _, ix := range have {
		if ix.Name == want.Name {
			return IndexConflict, ix
		}
	}
	return IndexMissing, IndexInfo{}
}

// Describe shows an index spec as a line of check: "{a: 1, b: 1} unique".
func (s IndexSpec) Describe() string { return bucket.DescribeKeys(s.Keys, s.Unique) }
