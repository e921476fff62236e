package embedded

import (
	"bytes"
	"context"
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
// read of another slot.
func sliceMsgs(doc []byte, first, n int) bson.Raw {
	out := startDoc(1024)
	sliced := false
	ok := eachElement(doc, func(e bsoncore.Element) bool {
		if e.Key() != "msgs" || sliced {
			out = append(out, e...)
			return true
		}
		v := e.Value()
		if v.Type != bsoncore.TypeArray {
			out = append(out, e...)
			return true
		}
		sliced = true // LookupErr reads the first msgs: cut that one only
		arr, i := startDoc(0), 0
		ok := eachElement(v.Data, func(el bsoncore.Element) bool {
			if i >= first+n {
				return false // the rest is not read
			}
			if i >= first {
				ev := el.Value()
				if ev.Validate() != nil {
					return false
				}
				arr = appendElem(arr, strconv.Itoa(i-first), bson.RawValue{Type: bson.Type(ev.Type), Value: ev.Data})
			}
			i++
			return true
		})
		out = appendElem(out, "msgs", bson.RawValue{Type: bson.TypeArray, Value: endDoc(arr)})
		return ok || i >= first+n
	})
	if !ok {
		return nil
	}
	return endDoc(out)
}

// eachElement calls fn with each element of an exactly framed document or
// array (declared length equal to its size, elements tiling it, closing
// zero) until fn says stop; false when the framing is not exact or fn
// stopped.
func eachElement(doc []byte, fn func(bsoncore.Element) bool) bool {
	length, rest, ok := bsoncore.ReadLength(doc)
	if !ok || int64(length) != int64(len(doc)) || length < 5 || doc[len(doc)-1] != 0 {
		return false
	}
	rest = rest[:len(rest)-1]
	for len(rest) > 0 {
		var e bsoncore.Element
		if e, rest, ok = bsoncore.ReadElement(rest); !ok || !fn(e) {
			return false
		}
	}
	return true
}
