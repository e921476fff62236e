package embedded

import (
	"bytes"
	"context"
	"strings"

	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// ClearIf empties the store, every collection and key space, when clear
// says so, in one write transaction: no other writer can come between what
// clear saw and the clearing. clear is given the number of documents of
// each collection and a reader of one collection's documents (copies).
// It reports whether the store was cleared.
func (b *rawDocs) ClearIf(_ context.Context, clear func(counts map[string]int, read func(coll string) []bson.Raw) bool) (bool, error) {
	cleared := false
	err := b.db.Update(func(tx *bolt.Tx) error {
		counts := map[string]int{}
		var names [][]byte
		err := tx.ForEach(func(name []byte, bk *bolt.Bucket) error {
			names = append(names, bytes.Clone(name))
			coll, ok := strings.CutPrefix(string(name), collectionPrefix)
			if string(name) == string(bucketMsgOdd) {
				coll, ok = bucket.CollMsg, true
			}
			if ok {
				counts[coll] += bk.Stats().KeyN
			}
			return nil
		})
		if err != nil {
			return err
		}
		read := func(coll string) []bson.Raw {
			var out []bson.Raw
			if bk := tx.Bucket(collBucket(coll)); bk != nil {
				_ = bk.ForEach(func(_, v []byte) error {
					out = append(out, bytes.Clone(v))
					return nil
				})
			}
			return out
		}
		if !clear(counts, read) {
			return nil
		}
		for _, name := range names {
			if string(name) == string(bucketMeta) {
				continue // the file's format mark stays
			}
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		cleared = true
		return createBuckets(tx)
	})
	return cleared, err
}
