package bucket

import (
	"bytes"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// untouchedSlot is the bytes of a slot as OpenIM creates every slot of a
// new bucket: {msg: null, revoke: null, del_list: [], is_read: false}, in
// that order. A slot holding anything else has been written since: a
// message, a revoke, a delete for me, a mark read, a physical delete.
var untouchedSlot = func() []byte {
	b, err := bson.Marshal(UntouchedSlot())
	if err != nil {
		panic(err)
	}
	return b
}()

// UntouchedSlot is that slot as a document, for a server to compare slots
// with: MongoDB's $eq compares documents field by field, in order, as
// IsUntouched compares bytes.
func UntouchedSlot() bson.D {
	return bson.D{{Key: "msg", Value: nil}, {Key: "revoke", Value: nil},
		{Key: "del_list", Value: bson.A{}}, {Key: "is_read", Value: false}}
}

// IsUntouched reports a slot document whose bytes are the untouched slot's.
func IsUntouched(slot []byte) bool { return bytes.Equal(slot, untouchedSlot) }

// Filled reports a slot holding a message or a malformed slot: what
// LastFilledSeq looks for.
func (s StoredSlot) Filled() bool { return s.filled() }

// Sent reports a slot LastSentSeq counts: filled, or erased by a physical
// delete.
func (s StoredSlot) Sent() bool { return s.filled() || s.Erased }
