package bench

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"time"

	"github.com/chatlens/chatlens/store"
	"go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// flatBoltBucket holds one document per message, keyed conversation_id +
// 0x00 + big-endian seq so a conversation's messages sort by seq: the key is
// the (conversation_id, seq) unique index.
var flatBoltBucket = []byte("msg_flat")

// FlatBolt is the flat layout in a bbolt file of its own.
type FlatBolt struct {
	db   *countedBolt
	path string
}

// OpenFlatBolt creates or opens the flat layout at path, with the bbolt
// options of the embedded store (noSync skips fsync after each commit).
func OpenFlatBolt(path string, noSync bool) (*FlatBolt, error) {
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second, NoSync: noSync,
		FreelistType: bbolt.FreelistMapType})
	if err != nil {
		return nil, fmt.Errorf("flat store %s: %w", path, err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(flatBoltBucket)
		return err
	})
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("flat store %s: %w", path, err)
	}
	return &FlatBolt{db: &countedBolt{DB: db}, path: path}, nil
}

func flatKey(cid string, seq int64) []byte {
	k := make([]byte, 0, len(cid)+9)
	k = append(append(k, cid...), 0)
	return binary.BigEndian.AppendUint64(k, uint64(seq))
}

// Insert writes docs in one transaction; a (conversation, seq) already
// stored is a duplicate key, as the unique index would say.
func (f *FlatBolt) Insert(_ context.Context, docs []*FlatDoc) error {
	return f.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(flatBoltBucket)
		for _, d := range docs {
			k := flatKey(d.ConversationID, d.Seq)
			if b.Get(k) != nil {
				return fmt.Errorf("%s seq %d: %w", d.ConversationID, d.Seq, store.ErrDuplicateKey)
			}
			raw, err := bson.Marshal(d)
			if err != nil {
				return err
			}
			if err := b.Put(k, raw); err != nil {
				return err
			}
		}
		return nil
	})
}

// Range walks the keys from..to of cid in order.
func (f *FlatBolt) Range(_ context.Context, cid string, from, to int64) ([]bson.Raw, error) {
	var out []bson.Raw
	end := flatKey(cid, to)
	err := f.db.View(func(tx *bbolt.Tx) error {
		c := tx.Bucket(flatBoltBucket).Cursor()
		for k, v := c.Seek(flatKey(cid, from)); k != nil && bytes.Compare(k, end) <= 0; k, v = c.Next() {
			out = append(out, bytes.Clone(v)) // bbolt's bytes die with the transaction
		}
		return nil
	})
	return out, err
}

// Before walks backwards from the key just below before.
func (f *FlatBolt) Before(_ context.Context, cid string, before int64, limit int) ([]bson.Raw, error) {
	var out []bson.Raw
	prefix := append([]byte(cid), 0)
	err := f.db.View(func(tx *bbolt.Tx) error {
		c := tx.Bucket(flatBoltBucket).Cursor()
		k, _ := c.Seek(flatKey(cid, before)) // the first key at or after before
		var v []byte
		if k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(out) < limit; k, v = c.Prev() {
			out = append(out, bytes.Clone(v)) // bbolt's bytes die with the transaction
		}
		return nil
	})
	return out, err
}

// Get looks each seq up by key in one read transaction.
func (f *FlatBolt) Get(_ context.Context, cid string, seqs []int64) ([]bson.Raw, error) {
	var out []bson.Raw
	err := f.db.View(func(tx *bbolt.Tx) error {
		b := tx.Bucket(flatBoltBucket)
		for _, seq := range seqs {
			if v := b.Get(flatKey(cid, seq)); v != nil {
				out = append(out, bytes.Clone(v)) // bbolt's bytes die with the transaction
			}
		}
		return nil
	})
	return out, err
}

// RoundTrips is the number of transactions so far.
func (f *FlatBolt) RoundTrips() int64 { return f.db.RoundTrips() }

// Storage counts the keys and their bytes, and the file's size.
func (f *FlatBolt) Storage(context.Context) (Storage, error) {
	var st Storage
	var data int64
	err := f.db.View(func(tx *bbolt.Tx) error {
		return tx.Bucket(flatBoltBucket).ForEach(func(_, v []byte) error {
			st.Documents++
			data += int64(len(v))
			return nil
		})
	})
	if err != nil {
		return st, err
	}
	st.IndexEntries = st.Documents // one B+tree key per document
	st.DataBytes = &data
	size, err := fileSize(f.path)
	st.FileBytes = size
	return st, err
}

func fileSize(path string) (*int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	n := fi.Size()
	return &n, nil
}

// Close closes the file.
func (f *FlatBolt) Close(context.Context) error { return f.db.Close() }

var _ FlatStore = (*FlatBolt)(nil)
