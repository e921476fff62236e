package embedded

import (
	"bytes"
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// InsertRaw stores docs of coll exactly as given (an _id is added when
// absent). A document whose unique key is stored is refused (RawInsert) or
// replaces the stored one (RawUpsert). The whole batch is one transaction:
// it lands entirely or not at all.
func (b *rawDocs) InsertRaw(_ context.Context, coll string, docs []bson.Raw, mode bucket.RawMode) (bucket.RawResult, error) {
	var res bucket.RawResult
	prepared := make([]bson.Raw, len(docs))
	byID := make([]bool, len(docs))
	for i, d := range docs {
		if err := d.Validate(); err != nil {
			return res, fmt.Errorf("%s document %d is not valid BSON: %w", coll, i+1, err)
		}
		prepared[i], byID[i] = withID(d), bucket.KeyedByID(coll, d)
	}
	err := b.db.Update(func(tx *bolt.Tx) error {
		res = bucket.RawResult{}
		for i, d := range prepared {
			bk, key, main, stored, err := rawSlot(tx, coll, d, byID[i])
			if err != nil {
				return err
			}
			switch {
			case stored && mode != bucket.RawUpsert:
				res.Refused = append(res.Refused, i)
				continue
			case stored:
				res.Replaced++
			default:
				res.Inserted++
			}
			if err := putRaw(tx, coll, bk, key, main, d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return bucket.RawResult{}, err
	}
	return res, nil
}

// rawSlot is the bbolt bucket and key a raw document of coll is stored
// under, and whether a document is stored there already; main tells a msg
// document in the well-formed key space. byID: a seq_user document keyed
// on its _id (bucket.KeyedByID).
func rawSlot(tx *bolt.Tx, coll string, doc bson.Raw, byID bool) (bk *bolt.Bucket, key []byte, main, stored bool, err error) {
	name := collBucket(coll)
	if coll == bucket.CollMsg {
		if key, main = msgKeyOf(doc); !main {
			name = bucketMsgOdd
		}
	} else if coll != bucket.CollSeqUser {
		key = uniqueKeyOf(coll, doc)
	}
	if bk, err = tx.CreateBucketIfNotExists(name); err != nil {
		return nil, nil, false, false, err
	}
	if coll == bucket.CollSeqUser {
		key, stored, err = seqUserKeyOf(bk, doc, byID)
		return bk, key, false, stored, err
	}
	return bk, key, main, bk.Get(key) != nil, nil
}

func putRaw(tx *bolt.Tx, coll string, bk *bolt.Bucket, key []byte, main bool, doc bson.Raw) error {
	if coll == bucket.CollMsg {
		return putMsgAt(tx, bk, key, main, doc)
	}
	if err := bk.Put(key, doc); err != nil {
		return err
	}
	if coll != bucket.CollConversation {
		return nil
	}
	// The secondary key is made of the same fields as the primary one, so a
	// replaced document keeps its entry and no entry goes stale.
	byID, err := tx.CreateBucketIfNotExists(bucketConvByID)
	if err != nil {
		return err
	}
	return byID.Put(conversationByIDKey(doc), key)
}

// scanChunk is how many documents ScanRaw reads per read transaction: fn
// runs outside any transaction, so it may write, and a long export never
// holds the file's read lock for long.
const scanChunk = 256

// ScanRaw calls fn with each stored document of coll (a copy fn may keep):
// msg documents whose doc_id starts with prefix, well-formed ones in
// conversation and bucket order, then odd ones; other collections in key
// order, prefix ignored.
func (b *rawDocs) ScanRaw(_ context.Context, coll, prefix string, fn func(bson.Raw) error) error {
	var chunk []bson.Raw
	keep := func(v []byte) bool {
		b.db.countRead(v)
		b.db.read(len(v))
		chunk = append(chunk, bytes.Clone(v))
		return len(chunk) < scanChunk
	}
	var read func(tx *bolt.Tx) error
	if coll == bucket.CollMsg {
		var pos msgPos
		read = func(tx *bolt.Tx) error {
			return eachMsgKey(tx, prefix, pos, func(at msgPos, _ string, v []byte) (bool, error) {
				pos = at
				return keep(v), nil
			})
		}
	} else {
		var resume []byte
		read = func(tx *bolt.Tx) error {
			bk := tx.Bucket(collBucket(coll))
			if bk == nil {
				return nil
			}
			c := bk.Cursor()
			k, v := c.First()
			if resume != nil {
				if k, v = c.Seek(resume); bytes.Equal(k, resume) {
					k, v = c.Next()
				}
			}
			for ; k != nil; k, v = c.Next() {
				resume = bytes.Clone(k)
				if !keep(v) {
					break
				}
			}
			return nil
		}
	}
	for {
		chunk = chunk[:0]
		if err := b.db.View(read); err != nil {
			return err
		}
		for _, d := range chunk {
			if err := fn(d); err != nil {
				return err
			}
		}
		if len(chunk) < scanChunk {
			return nil
		}
	}
}
