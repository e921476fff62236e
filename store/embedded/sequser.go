package embedded

import (
	"bytes"
	"encoding/binary"

	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// seq_user documents. OpenIM's index on (user_id, conversation_id) is not
// unique and the server itself leaves two documents for one pair
// (pkg/common/storage/database/mgo/seq_user.go: upserts on a non-unique
// index), so this key space holds several per pair, in the order they were
// stored, as MongoDB's natural order keeps them: the pair's first document
// under its key (stringKey(user, conversation)), each later one under that
// key and an 8-byte big-endian number from the bucket's sequence. A read by
// the pair is a prefix scan whose first document is the one the server's
// FindOne returns. The escaping of stringKey makes the pair's key a prefix
// of no other pair's.

// seqUserPairKey is the key of the pair's first document, and the prefix
// of all of the pair's documents.
func seqUserPairKey(uid, cid string) []byte { return stringKey(uid, cid) }

// seqUserDocs calls fn with each stored document of the pair, first stored
// first, until fn returns false.
func seqUserDocs(bk *bolt.Bucket, pair []byte, fn func(k, v []byte) bool) {
	c := bk.Cursor()
	for k, v := c.Seek(pair); k != nil && bytes.HasPrefix(k, pair); k, v = c.Next() {
		if !fn(k, v) {
			return
		}
	}
}

// seqUserNewKey is where a document of the pair goes that is stored after
// those the pair has: the pair's key when it has none.
func seqUserNewKey(bk *bolt.Bucket, pair []byte) ([]byte, error) {
	taken := false
	seqUserDocs(bk, pair, func([]byte, []byte) bool { taken = true; return false })
	if !taken {
		return pair, nil
	}
	n, err := bk.NextSequence()
	if err != nil {
		return nil, err
	}
	return binary.BigEndian.AppendUint64(bytes.Clone(pair), n), nil
}

// seqUserKeyOf is where InsertRaw puts or finds a raw seq_user document:
// the key of the stored document it replaces (stored true), else a new
// key after the pair's documents. A document that names its _id
// (bucket.KeyedByID) replaces only the document of its pair with that
// _id; one that names none is keyed on the pair, its first document.
func seqUserKeyOf(bk *bolt.Bucket, doc bson.Raw, byID bool) (key []byte, stored bool, err error) {
	pair := uniqueKeyOf(bucket.CollSeqUser, doc)
	id := doc.Lookup("_id")
	seqUserDocs(bk, pair, func(k, v []byte) bool {
		if byID {
			got, err := bson.Raw(v).LookupErr("_id")
			if err != nil || got.Type != id.Type || !bytes.Equal(got.Value, id.Value) {
				return true
			}
		}
		key, stored = bytes.Clone(k), true
		return false
	})
	if stored {
		return key, true, nil
	}
	key, err = seqUserNewKey(bk, pair)
	return key, false, err
}

// seqUsersOfPairs reads every stored document of each pair, first stored
// first, pairs in the order given, a pair given twice read once.
func (b *seqs) seqUsersOfPairs(n int, pair func(i int) []byte) ([]bucket.SeqUser, error) {
	var out []bucket.SeqUser
	err := b.db.View(func(tx *bolt.Tx) error {
		bk := tx.Bucket(collBucket(bucket.CollSeqUser))
		if bk == nil {
			return nil
		}
		seen := map[string]bool{}
		for i := range n {
			p := pair(i)
			if seen[string(p)] {
				continue
			}
			seen[string(p)] = true
			seqUserDocs(bk, p, func(_, v []byte) bool {
				out = append(out, bucket.DecodeSeqUser(v))
				return true
			})
		}
		return nil
	})
	return out, err
}

// raiseReadSeq raises read_seq of the pair's first document, as OpenIM's
// and the MongoDB backend's updateOne on the pair changes the first
// document it finds; a pair with none gets one, with the _id the MongoDB
// backend gives it (bucket.SeqUserID) and the fields in the order MongoDB
// writes an upsert's (_id, the filter's, then the rest by name). Nothing
// else is written between the two: one transaction.
func (b *seqs) raiseReadSeq(uid, cid string, n int64) error {
	return b.db.UpdateGrouped(func(tx *bolt.Tx) error {
		bk, err := tx.CreateBucketIfNotExists(collBucket(bucket.CollSeqUser))
		if err != nil {
			return err
		}
		pair := seqUserPairKey(uid, cid)
		var key, old []byte
		seqUserDocs(bk, pair, func(k, v []byte) bool { key, old = bytes.Clone(k), v; return false })
		if old == nil {
			doc := startDoc(96)
			doc = appendElem(doc, "_id", rawString(bucket.SeqUserID(uid, cid)))
			doc = appendElem(doc, "user_id", rawString(uid))
			doc = appendElem(doc, "conversation_id", rawString(cid))
			doc = appendElem(doc, "max_seq", rawInt64(0))
			doc = appendElem(doc, "min_seq", rawInt64(0))
			doc = appendElem(doc, "read_seq", rawInt64(n))
			return bk.Put(pair, endDoc(doc))
		}
		doc, err := update(old, []string{"read_seq"}, raiseTo(n))
		if err != nil {
			return err
		}
		if bytes.Equal(doc, old) {
			return nil
		}
		return bk.Put(key, doc)
	})
}
