package bucket

import (
	"bytes"
	"encoding/binary"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// maxSpecFields bounds the field lists a fieldTable indexes (msgFields is
// the longest).
const maxSpecFields = 24

// fieldTable is, for one document and one list of contract fields, the
// value of each field as doc.LookupErr(name) would return it. It is filled
// by one walk of the document instead of one LookupErr per field, which
// re-walks the document each time: that was most of the cost of a read.
type fieldTable struct {
	vals  [maxSpecFields]bson.RawValue
	found uint32 // bit i: specs[i] is present
	// odd: the document holds a field twice, a field outside the list, or
	// was not walked in one pass (malformed). The checks stay exact either
	// way; the hand decoder leaves such documents to bson.Unmarshal.
	odd bool
}

// index fills t for doc and specs. A document that is not well formed is
// looked up field by field, exactly as before, since LookupErr finds what
// precedes the damage and a single walk would have to stop there.
func (t *fieldTable) index(doc []byte, specs []fieldSpec) {
	t.found, t.odd = 0, false
	if t.walk(doc, specs) {
		return
	}
	t.found, t.odd = 0, true
	for i, f := range specs {
		if v, err := bson.Raw(doc).LookupErr(f.name); err == nil {
			t.vals[i], t.found = v, t.found|1<<i
		}
	}
}

// walk indexes a well-formed document in one pass, keeping the first value
// of each name as LookupErr does. It reports false, leaving t partly
// filled, when the document is not exactly framed: declared length equal to
// its size, elements tiling it, terminating zero.
func (t *fieldTable) walk(doc []byte, specs []fieldSpec) bool {
	if len(doc) < 5 {
		return false
	}
	n := binary.LittleEndian.Uint32(doc)
	if uint64(n) != uint64(len(doc)) || doc[len(doc)-1] != 0 {
		return false
	}
	rest := doc[4 : len(doc)-1]
	next := 0 // documents list their fields in contract order: try that first
	for len(rest) > 0 {
		elem, r, ok := bsoncore.ReadElement(rest)
		if !ok {
			return false
		}
		key, v := splitElement(elem)
		rest = r
		i := specIndex(specs, key, next)
		switch {
		case i < 0:
			t.odd = true
		case t.found&(1<<i) != 0:
			t.odd = true // LookupErr keeps the first
		default:
			t.vals[i] = v
			t.found |= 1 << i
			next = i + 1
		}
	}
	return true
}

// splitElement is the key and value of an element bsoncore.ReadElement
// accepted, as elem.KeyBytesErr and elem.ValueErr would return them: the key
// ends at the first zero byte after the type, and the value, which
// ReadElement has already measured, is all the rest. Neither can fail then.
func splitElement(elem bsoncore.Element) ([]byte, bson.RawValue) {
	k := bytes.IndexByte(elem[1:], 0) + 1
	return elem[1:k], bson.RawValue{Type: bson.Type(elem[0]), Value: elem[k+1:]}
}

// specIndex is the position of key in specs, -1 if absent; guess is tried
// first. string(key) in a comparison does not allocate.
func specIndex(specs []fieldSpec, key []byte, guess int) int {
	if guess < len(specs) && specs[guess].name == string(key) {
		return guess
	}
	for i := range specs {
		if specs[i].name == string(key) {
			return i
		}
	}
	return -1
}

// get is the value of specs[i], as LookupErr would find it.
func (t *fieldTable) get(i int) (bson.RawValue, bool) {
	if t.found&(1<<i) == 0 {
		return bson.RawValue{}, false
	}
	return t.vals[i], true
}

// integer is the whole number in specs[i]; see integer.
func (t *fieldTable) integer(i int) (int64, bool) {
	v, ok := t.get(i)
	if !ok {
		return 0, false
	}
	return integer(v)
}

// mustIndex is the position of name in specs, for the named positions the
// checks and the decoder use; a typo fails at start-up, not silently.
func mustIndex(specs []fieldSpec, name string) int {
	for i, f := range specs {
		if f.name == name {
			return i
		}
	}
	panic("store: no contract field " + name)
}

// Positions of the fields read by name.
var (
	fSlotMsg     = mustIndex(slotFields, "msg")
	fSlotRevoke  = mustIndex(slotFields, "revoke")
	fSlotDelList = mustIndex(slotFields, "del_list")
	fSlotIsRead  = mustIndex(slotFields, "is_read")

	fMsgSeq         = mustIndex(msgFields, "seq")
	fMsgSendTime    = mustIndex(msgFields, "send_time")
	fMsgContent     = mustIndex(msgFields, "content")
	fMsgContentType = mustIndex(msgFields, "content_type")
	fMsgOfflinePush = mustIndex(msgFields, "offline_push")
)
