package embedded

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// Key layouts.
//
// msg, well-formed doc_id "<cid>:<n>": cid 0x00 uint64-big-endian(n), so a
// conversation's buckets are adjacent and in bucket order, and the next
// conversation is one seek away (cid 0x01).
//
// msg, any other doc_id (odd ones from imports), in a separate bucket:
// cid 0x00 0x02 doc_id, cid being the text before the last ':' (empty when
// there is none or it holds a NUL); a doc_id that is not a string is keyed
// 0x00 <its BSON type> <its value bytes>.
//
// other collections: the values of bucket.UniqueKey(coll) in order, each as
// <BSON type> <bytes, 0x00 escaped as 0x00 0xFF> 0x00 0x01, so the parts
// never run into each other and the first parts are a key prefix.

const indexLen = 8

// mainMsgKey is the key of a well-formed doc_id; ok is false for odd ones.
func mainMsgKey(docID string) (key []byte, ok bool) {
	cid, index, err := bucket.ParseDocID(docID)
	if err != nil || strings.IndexByte(cid, 0) >= 0 {
		return nil, false
	}
	key = make([]byte, len(cid)+1+indexLen)
	copy(key, cid)
	binary.BigEndian.PutUint64(key[len(cid)+1:], uint64(index))
	return key, true
}

// mainMsgDocID reverses mainMsgKey.
func mainMsgDocID(key []byte) string {
	n := len(key) - 1 - indexLen
	return bucket.DocID(string(key[:n]), int64(binary.BigEndian.Uint64(key[n+1:])))
}

// mainMsgCid is the conversation of a main msg key.
func mainMsgCid(key []byte) string { return string(key[:len(key)-1-indexLen]) }

// oddCid is the conversation an odd string doc_id is listed under.
func oddCid(docID string) string {
	i := strings.LastIndexByte(docID, ':')
	if i <= 0 || strings.IndexByte(docID[:i], 0) >= 0 {
		return ""
	}
	return docID[:i]
}

// oddMsgKey keys a string doc_id that mainMsgKey refuses.
func oddMsgKey(docID string) []byte {
	cid := oddCid(docID)
	key := make([]byte, 0, len(cid)+2+len(docID))
	key = append(append(key, cid...), 0, byte(bson.TypeString))
	return append(key, docID...)
}

// oddMsgDocID reverses oddMsgKey; ok is false for a doc_id that is not a string.
func oddMsgDocID(key []byte) (string, bool) {
	i := bytes.IndexByte(key, 0)
	if i < 0 || i+1 >= len(key) || key[i+1] != byte(bson.TypeString) {
		return "", false
	}
	return string(key[i+2:]), true
}

// msgKeyOf keys a raw msg document by its doc_id: main reports which bucket.
func msgKeyOf(doc bson.Raw) (key []byte, main bool) {
	v, err := doc.LookupErr("doc_id")
	if err != nil {
		v = rawNull // a unique index treats a missing field as null
	}
	if s, ok := v.StringValueOK(); ok {
		if k, ok := mainMsgKey(s); ok {
			return k, true
		}
		return oddMsgKey(s), false
	}
	return append([]byte{0, byte(v.Type)}, v.Value...), false
}

// appendPart appends one unique-key value (see the layout above).
func appendPart(dst []byte, t bson.Type, val []byte) []byte {
	dst = append(dst, byte(t))
	for _, c := range val {
		dst = append(dst, c)
		if c == 0 {
			dst = append(dst, 0xFF)
		}
	}
	return append(dst, 0, 1)
}

// stringKey is the key (or key prefix) made of string parts.
func stringKey(parts ...string) []byte {
	var k []byte
	for _, p := range parts {
		k = appendPart(k, bson.TypeString, []byte(p))
	}
	return k
}

// valuePart appends the unique-key part of a stored field value.
func valuePart(dst []byte, v bson.RawValue) []byte {
	if s, ok := v.StringValueOK(); ok {
		return appendPart(dst, bson.TypeString, []byte(s))
	}
	return appendPart(dst, v.Type, v.Value)
}

// uniqueKeyOf keys a raw document of coll by the fields of bucket.UniqueKey;
// a missing field counts as null, as in a MongoDB unique index.
func uniqueKeyOf(coll string, doc bson.Raw) []byte {
	var k []byte
	for _, f := range bucket.UniqueKey(coll) {
		v, err := doc.LookupErr(f)
		if err != nil {
			v = rawNull
		}
		k = valuePart(k, v)
	}
	return k
}

// conversationByIDKey is the secondary key of a conversation document:
// conversation_id first, then owner_user_id.
func conversationByIDKey(doc bson.Raw) []byte {
	var k []byte
	for _, f := range []string{"conversation_id", "owner_user_id"} {
		v, err := doc.LookupErr(f)
		if err != nil {
			v = rawNull
		}
		k = valuePart(k, v)
	}
	return k
}

// docIDPrefixRanges lists the key prefixes under which every msg document
// whose doc_id starts with p is found, in key order, none inside another.
// The keys under them may include others: callers check the doc_id.
func docIDPrefixRanges(p string, main bool) [][]byte {
	if p == "" {
		return [][]byte{nil}
	}
	// A doc_id starting with p either belongs to a conversation whose ID
	// starts with p, or to the conversation p[:j] exactly (j the last ':' of
	// p) with a bucket suffix starting with p[j+1:].
	ranges := [][]byte{[]byte(p)}
	j := strings.LastIndexByte(p, ':')
	switch {
	case main && j >= 0:
		ranges = append(ranges, append([]byte(p[:j]), 0))
	case !main && j >= 0:
		r := append([]byte(p[:j]), 0, byte(bson.TypeString))
		ranges = append(ranges, append(r, p...))
	}
	if !main { // doc_ids listed under no conversation
		ranges = append(ranges, append([]byte{0, byte(bson.TypeString)}, p...))
	}
	slices.SortFunc(ranges, bytes.Compare)
	out := ranges[:0]
	for _, r := range ranges {
		if len(out) > 0 && bytes.HasPrefix(r, out[len(out)-1]) {
			continue
		}
		out = append(out, r)
	}
	return out
}
