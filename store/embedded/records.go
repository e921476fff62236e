package embedded

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"

	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// The small collections: point reads and prefix scans by unique key, decoded
// into the store's records the way the MongoDB driver would decode them.

// SeqRecords reads the seq documents of cids.
func (b *seqs) SeqRecords(_ context.Context, cids []string) ([]bucket.SeqRecord, error) {
	return getRecords(b.handle, bucket.CollSeq, len(cids), func(i int) []byte { return stringKey(cids[i]) }, bucket.DecodeSeqRecord)
}

// SeqUsers reads uid's seq_user documents of cids, a pair's several ones
// in the order they were stored (sequser.go).
func (b *seqs) SeqUsers(_ context.Context, uid string, cids []string) ([]bucket.SeqUser, error) {
	return b.seqUsersOfPairs(len(cids), func(i int) []byte { return seqUserPairKey(uid, cids[i]) })
}

// SeqUsersOf reads the seq_user documents of cid for each of uids, a
// pair's several ones in the order they were stored.
func (b *seqs) SeqUsersOf(_ context.Context, cid string, uids []string) ([]bucket.SeqUser, error) {
	return b.seqUsersOfPairs(len(uids), func(i int) []byte { return seqUserPairKey(uids[i], cid) })
}

// Users reads the user documents of ids.
func (b *directory) Users(_ context.Context, ids []string) ([]bucket.User, error) {
	return getRecords(b.handle, bucket.CollUser, len(ids), func(i int) []byte { return stringKey(ids[i]) }, bucket.DecodeUser)
}

// Groups reads the group documents of ids.
func (b *directory) Groups(_ context.Context, ids []string) ([]bucket.Group, error) {
	return getRecords(b.handle, bucket.CollGroup, len(ids), func(i int) []byte { return stringKey(ids[i]) }, bucket.DecodeGroup)
}

// Conversations lists owner's conversation documents, by conversation ID.
func (b *directory) Conversations(_ context.Context, owner string) ([]bucket.Conversation, error) {
	return scanRecords(b.handle, bucket.CollConversation, stringKey(owner), bucket.DecodeConversation)
}

// GroupMembers lists the members of groupID, by user ID.
func (b *directory) GroupMembers(_ context.Context, groupID string) ([]bucket.GroupMember, error) {
	return scanRecords(b.handle, bucket.CollGroupMember, stringKey(groupID), bucket.DecodeGroupMember)
}

// ConversationsByID reads the conversation documents of cid, one per owner,
// through the secondary key space.
func (b *directory) ConversationsByID(_ context.Context, cid string) ([]bucket.Conversation, error) {
	var out []bucket.Conversation
	err := b.db.View(func(tx *bolt.Tx) error {
		byID, primary := tx.Bucket(bucketConvByID), tx.Bucket(collBucket(bucket.CollConversation))
		if byID == nil || primary == nil {
			return nil
		}
		prefix := stringKey(cid)
		c := byID.Cursor()
		for k, pk := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, pk = c.Next() {
			if v := primary.Get(pk); v != nil {
				b.db.read(len(v))
				out = append(out, bucket.DecodeConversation(v))
			}
		}
		return nil
	})
	return out, err
}

// RaiseMaxSeq is updateOne({conversation_id: cid}, {$max: {max_seq: n},
// $setOnInsert: {min_seq: 0}}, upsert), as the MongoDB backend sends it.
func (b *seqs) RaiseMaxSeq(_ context.Context, cid string, maxSeq int64) error {
	return b.upsertMax(bucket.CollSeq, bucket.SeqID(cid), []string{"conversation_id"}, []string{cid}, "max_seq", maxSeq, "min_seq")
}

// RaiseReadSeq raises read_seq of the pair's first document, or stores
// one for a pair that has none, as the MongoDB backend's upsert does
// (sequser.go).
func (b *seqs) RaiseReadSeq(_ context.Context, uid, cid string, seq int64) error {
	return b.raiseReadSeq(uid, cid, seq)
}

// upsertMax raises field of the document whose key fields equal values; a
// missing document is created as the MongoDB backend's upsert creates it:
// _id id, the filter's fields, then the updated field and the zeroed
// onInsert fields, in the lexicographic order MongoDB (5.0 and later)
// applies update fields in.
func (b *seqs) upsertMax(coll, id string, fields, values []string, field string, n int64, onInsert ...string) error {
	return b.db.UpdateGrouped(func(tx *bolt.Tx) error {
		bk, err := tx.CreateBucketIfNotExists(collBucket(coll))
		if err != nil {
			return err
		}
		key := stringKey(values...)
		old := bk.Get(key)
		if old == nil {
			doc := appendElem(startDoc(64), "_id", rawString(id))
			for i, f := range fields {
				doc = appendElem(doc, f, rawString(values[i]))
			}
			set := map[string]int64{field: n}
			for _, f := range onInsert {
				set[f] = 0
			}
			for _, f := range slices.Sorted(maps.Keys(set)) {
				doc = appendElem(doc, f, rawInt64(set[f]))
			}
			return bk.Put(key, endDoc(doc))
		}
		doc, err := update(old, []string{field}, raiseTo(n))
		if err != nil {
			return fmt.Errorf("%s %v: %w", coll, values, err)
		}
		if bytes.Equal(doc, old) {
			return nil
		}
		return bk.Put(key, doc)
	})
}

// The records are decoded field by field with the store's lenient decoders,
// as the MongoDB backend does: one document with a mistyped field must not
// make the whole list unreadable.

// getRecords reads up to n documents of coll by key and decodes them.
func getRecords[T any](b *handle, coll string, n int, key func(i int) []byte, decode func(bson.Raw) T) ([]T, error) {
	var out []T
	err := b.db.View(func(tx *bolt.Tx) error {
		bk := tx.Bucket(collBucket(coll))
		if bk == nil {
			return nil
		}
		seen := map[string]bool{}
		for i := range n {
			k := key(i)
			v := bk.Get(k)
			if v == nil || seen[string(k)] {
				continue
			}
			seen[string(k)] = true
			b.db.read(len(v))
			out = append(out, decode(v))
		}
		return nil
	})
	return out, err
}

// scanRecords decodes the documents of coll whose key starts with prefix.
func scanRecords[T any](b *handle, coll string, prefix []byte, decode func(bson.Raw) T) ([]T, error) {
	var out []T
	err := b.db.View(func(tx *bolt.Tx) error {
		bk := tx.Bucket(collBucket(coll))
		if bk == nil {
			return nil
		}
		c := bk.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			b.db.read(len(v))
			out = append(out, decode(v))
		}
		return nil
	})
	return out, err
}
