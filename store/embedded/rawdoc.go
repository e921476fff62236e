package embedded

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Documents are kept as the exact BSON bytes they arrived in and changed by
// copying: untouched elements are copied byte for byte, only the elements on
// an update's path are rebuilt. These helpers build BSON documents by hand.

// startDoc begins a document with room for its length prefix.
func startDoc(capacity int) []byte { return append(make([]byte, 0, capacity+5), 0, 0, 0, 0) }

// endDoc closes a document begun with startDoc and fills in its length.
func endDoc(b []byte) []byte {
	b = append(b, 0)
	binary.LittleEndian.PutUint32(b, uint32(len(b)))
	return b
}

// appendElem appends one element: its type, its key and its value bytes.
func appendElem(dst []byte, key string, v bson.RawValue) []byte {
	dst = append(dst, byte(v.Type))
	dst = append(dst, key...)
	dst = append(dst, 0)
	return append(dst, v.Value...)
}

// rawString is a BSON string value.
func rawString(s string) bson.RawValue {
	v := binary.LittleEndian.AppendUint32(make([]byte, 0, len(s)+5), uint32(len(s)+1))
	v = append(append(v, s...), 0)
	return bson.RawValue{Type: bson.TypeString, Value: v}
}

// rawInt64 is a BSON int64 value.
func rawInt64(n int64) bson.RawValue {
	return bson.RawValue{Type: bson.TypeInt64, Value: binary.LittleEndian.AppendUint64(nil, uint64(n))}
}

var rawNull = bson.RawValue{Type: bson.TypeNull}

// toRaw encodes any Go value the way the MongoDB driver would in an update.
func toRaw(v any) (bson.RawValue, error) {
	doc, err := bson.Marshal(bson.D{{Key: "v", Value: v}})
	if err != nil {
		return bson.RawValue{}, err
	}
	return bson.Raw(doc).Lookup("v"), nil
}

// withID returns doc with an ObjectID _id first when it has no _id, as the
// MongoDB driver does on insert; a doc with an _id is returned unchanged.
func withID(doc bson.Raw) bson.Raw {
	if _, err := doc.LookupErr("_id"); err == nil {
		return doc
	}
	id := bson.NewObjectID()
	out := startDoc(len(doc) + 17)
	out = appendElem(out, "_id", bson.RawValue{Type: bson.TypeObjectID, Value: id[:]})
	out = append(out, doc[4:len(doc)-1]...)
	return endDoc(out)
}

// docValue wraps a document as a value so paths can start at the root.
func docValue(doc bson.Raw) bson.RawValue {
	return bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: doc}
}

// arrayIndex parses a path part as an array position, MongoDB style: plain
// decimal digits only.
func arrayIndex(part string) (int, bool) {
	i, err := strconv.Atoi(part)
	if err != nil || i < 0 || strconv.Itoa(i) != part {
		return 0, false
	}
	return i, true
}

// describe names a value in an error message without dumping its content.
func describe(v bson.RawValue) string {
	if v.Type == bson.TypeNull {
		return "null"
	}
	return fmt.Sprintf("a %s", v.Type)
}
