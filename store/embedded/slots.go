package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"strconv"

	"github.com/chatlens/chatlens/store"
	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// FindSlots reads bucket docID with msgs cut to the n slots from first, as
// MongoDB's {msgs: {$slice: [first, n]}} projection returns it: only those
// slots are copied out of the file. A bucket whose msgs is not a readable
// array comes back whole (sliced false), so the reader sees the same
// damage a whole-bucket read shows.
func (b *Backend) FindSlots(_ context.Context, docID string, first, n int) (bson.Raw, bool, error) {
	var out bson.Raw
	sliced := true
	err := b.db.View(func(tx *bolt.Tx) error {
		doc := getMsg(tx, docID)
		if doc == nil {
			return nil
		}
		if out = sliceMsgs(doc, first, n); out == nil {
			out, sliced = bytes.Clone(doc), false
		}
		return nil
	})
	return out, sliced, err
}

// SlotReads: the embedded store always cuts the array itself.
func (b *Backend) SlotReads() store.SlotReadMode { return store.SlotsProjected }

// sliceMsgs is doc with its msgs array cut to n elements from first (fewer
// where the array is shorter), every other field kept; nil when doc or its
// msgs is not exactly framed or a slot asked for is not valid BSON. The
// slots before those asked are skipped by their lengths and the ones after
// are not read: a slot damaged byte by byte (which no write through
// MongoDB or chatlens leaves) spoils a read of the whole bucket but not a
// read of another slot. doc may be bbolt's own bytes: the result is a copy,
// built in one allocation of its final size.
func sliceMsgs(doc []byte, first, n int) bson.Raw {
	body, ok := framed(doc)
	if !ok {
		return nil
	}
	// The first msgs holding an array is cut (LookupErr reads that one);
	// every other element is kept as it is.
	var msgs bsoncore.Element
	var before, after []byte // the elements around msgs
	for rest := body; len(rest) > 0; {
		e, next, ok := bsoncore.ReadElement(rest)
		if !ok {
			return nil
		}
		if msgs == nil && e[0] == byte(bsoncore.TypeArray) && e.Key() == "msgs" {
			msgs, before, after = e, body[:len(body)-len(rest)], next
		}
		rest = next
	}
	if msgs == nil {
		return bytes.Clone(doc)
	}
	arr, ok := framed(msgs.Value().Data)
	if !ok {
		return nil
	}
	var keep []bsoncore.Element // the elements asked for
	size := 0
	for i := 0; len(arr) > 0 && i < first+n; i++ {
		e, next, ok := bsoncore.ReadElement(arr)
		if !ok {
			return nil
		}
		if i >= first {
			if e.Value().Validate() != nil {
				return nil
			}
			keep = append(keep, e)
			size += len(e) - len(e.Key()) + len(strconv.Itoa(i-first))
		}
		arr = next
	}
	// The document without msgs, plus "\x04msgs\x00", the array's length,
	// its elements and its closing zero.
	out := make([]byte, 4, len(doc)-len(msgs)+6+4+size+1)
	out = append(out, before...)
	out = append(out, byte(bsoncore.TypeArray))
	out = append(out, "msgs"...)
	out = append(out, 0)
	at := len(out)
	out = append(out, 0, 0, 0, 0)
	for i, e := range keep {
		out = append(out, e[0])
		out = strconv.AppendInt(out, int64(i), 10)
		out = append(out, e[1+len(e.Key()):]...) // the key's closing zero and the value
	}
	out = append(out, 0)
	binary.LittleEndian.PutUint32(out[at:], uint32(len(out)-at))
	out = append(out, after...)
	return endDoc(out)
}

// framed is the elements of an exactly framed document or array (declared
// length equal to its size, closing zero); ok false otherwise.
func framed(doc []byte) ([]byte, bool) {
	length, _, ok := bsoncore.ReadLength(doc)
	if !ok || int64(length) != int64(len(doc)) || length < 5 || doc[len(doc)-1] != 0 {
		return nil, false
	}
	return doc[4 : len(doc)-1], true
}
