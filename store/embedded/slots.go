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
// msgs is not readable as such.
func sliceMsgs(doc []byte, first, n int) bson.Raw {
	elems, err := bsoncore.Document(doc).Elements()
	if err != nil {
		return nil
	}
	out := startDoc(1024)
	for _, e := range elems {
		if e.Key() != "msgs" {
			out = append(out, e...)
			continue
		}
		v := e.Value()
		if v.Type != bsoncore.TypeArray {
			out = append(out, e...)
			continue
		}
		vals, err := bsoncore.Array(v.Data).Values()
		if err != nil {
			return nil
		}
		vals = vals[min(first, len(vals)):min(first+n, len(vals))]
		arr := startDoc(0)
		for i, ev := range vals {
			arr = appendElem(arr, strconv.Itoa(i), bson.RawValue{Type: bson.Type(ev.Type), Value: ev.Data})
		}
		out = appendElem(out, "msgs", bson.RawValue{Type: bson.TypeArray, Value: endDoc(arr)})
	}
	return endDoc(out)
}
