package bucket_test

// The decoding of buckets as it was before the single-pass rewrite, kept
// verbatim (names prefixed ref) as the reference the new decoder must match
// exactly: same slots, same problems, same wording.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/chatlens/chatlens/store/bucket"
)

// refDecodeBucket decodes a raw msg document tolerantly.
func refDecodeBucket(raw bson.Raw) *bucket.Bucket {
	b := &bucket.Bucket{}
	idVal, err := raw.LookupErr("doc_id")
	switch {
	case err != nil:
		b.Problems = append(b.Problems, "doc_id is missing")
	case idVal.Type != bson.TypeString:
		b.Problems = append(b.Problems, fmt.Sprintf("doc_id is %s, not a string", idVal.Type))
	default:
		var ok bool
		if b.DocID, ok = idVal.StringValueOK(); !ok { // truncated bytes: StringValue would panic
			b.Problems = append(b.Problems, "doc_id is not a readable string")
			break
		}
		cid, index, perr := bucket.ParseDocID(b.DocID)
		b.Cid, b.Index = cid, index
		if perr != nil {
			b.Problems = append(b.Problems, perr.Error())
		}
	}
	for i := range b.Slots {
		b.Slots[i].Seq = bucket.FirstSeq(b.Index) + int64(i)
	}
	msgsVal, err := raw.LookupErr("msgs")
	if err != nil {
		b.Problems = append(b.Problems, "msgs is missing")
		return b
	}
	arr, ok := msgsVal.ArrayOK()
	if !ok {
		b.Problems = append(b.Problems, fmt.Sprintf("msgs is %s, not an array", msgsVal.Type))
		return b
	}
	elems, err := arr.Values()
	if err != nil {
		b.Problems = append(b.Problems, "msgs is not a readable array: "+err.Error())
		return b
	}
	if len(elems) != bucket.BucketSize {
		b.Problems = append(b.Problems, fmt.Sprintf("msgs has %d slots, not %d", len(elems), bucket.BucketSize))
	}
	for i := 0; i < len(elems) && i < bucket.BucketSize; i++ {
		refDecodeSlot(&b.Slots[i], elems[i])
	}
	for i := len(elems); i < bucket.BucketSize; i++ {
		b.Slots[i].Problem = "slot is missing from a short msgs array"
	}
	return b
}

func refDecodeSlot(s *bucket.StoredSlot, v bson.RawValue) {
	switch v.Type {
	case bson.TypeNull:
		s.Problem = "slot is null"
		return
	case bson.TypeEmbeddedDocument:
	default:
		s.Problem = fmt.Sprintf("slot is %s, not a document", v.Type)
		return
	}
	var slot bucket.Slot
	if err := bson.Unmarshal(v.Value, &slot); err != nil {
		s.Problem = "slot does not decode: " + err.Error()
		return
	}
	s.Slot = &slot
	s.Erased = slot.Msg == nil && refErased(v.Value)
	if slot.Msg != nil && slot.Msg.SendTime != 0 && slot.Msg.Seq != s.Seq {
		s.Problem = fmt.Sprintf("message says seq %d but its slot holds seq %d", slot.Msg.Seq, s.Seq)
	}
	// What a lenient decode hides (missing fields, nulls, bad content) still
	// deserves a marker.
	if s.Problem == "" {
		s.Problem = refSlotMarker(v, s.Seq)
	}
}

// refErased: msg is null and comes first, and the keys are not exactly
// msg, revoke, del_list, is_read.
func refErased(raw bson.Raw) bool {
	var d bson.D
	if bson.Unmarshal(raw, &d) != nil || len(d) == 0 || d[0].Key != "msg" || d[0].Value != nil {
		return false
	}
	var keys []string
	for _, e := range d {
		keys = append(keys, e.Key)
	}
	return strings.Join(keys, ",") != "msg,revoke,del_list,is_read"
}

// refFieldType is the BSON shape a contract field must have.
type refFieldType int

const (
	rTString refFieldType = iota
	rTInt32
	rTInt64
	rTBool
	rTStrings       // array of strings
	rTStringsOrNull // array of strings or null
	rTBoolMapOrNull // document of bools or null
	rTPushOrNull    // OfflinePush document or null
	rTMsgOrNull     // MsgData document or null
	rTRevokeOrNull  // Revoke document or null
)

type refFieldSpec struct {
	name    string
	typ     refFieldType
	mayLack bool // OpenIM's physical delete leaves {msg: null} alone
}

var refSlotFields = []refFieldSpec{{"msg", rTMsgOrNull, false}, {"revoke", rTRevokeOrNull, true}, {"del_list", rTStrings, true}, {"is_read", rTBool, true}}

var refMsgFields = []refFieldSpec{
	{"send_id", rTString, false}, {"recv_id", rTString, false}, {"group_id", rTString, false}, {"client_msg_id", rTString, false},
	{"server_msg_id", rTString, false}, {"sender_platform_id", rTInt32, false}, {"sender_nickname", rTString, false},
	{"sender_face_url", rTString, false}, {"session_type", rTInt32, false}, {"msg_from", rTInt32, false}, {"content_type", rTInt32, false},
	{"content", rTString, false}, {"seq", rTInt64, false}, {"send_time", rTInt64, false}, {"create_time", rTInt64, false}, {"status", rTInt32, false},
	{"is_read", rTBool, false}, {"options", rTBoolMapOrNull, false}, {"offline_push", rTPushOrNull, false},
	{"at_user_id_list", rTStringsOrNull, false}, {"attached_info", rTString, false}, {"ex", rTString, false},
}

var refRevokeFields = []refFieldSpec{{"role", rTInt32, false}, {"user_id", rTString, false}, {"nickname", rTString, false}, {"time", rTInt64, false}}

var refPushFields = []refFieldSpec{{"title", rTString, false}, {"desc", rTString, false}, {"ex", rTString, false}, {"ios_push_sound", rTString, false}, {"ios_badge_count", rTBool, false}}

// refCheckSlot inspects one element of a msgs array, at the position holding
// seq, against the contract of OPENIM.md. It reads the raw BSON, so it sees
// what a lenient decode hides: missing fields, nulls, numbers where strings
// belong, content that is not JSON. nil means the slot is sound.
func refCheckSlot(v bson.RawValue, seq int64) []bucket.SlotProblem {
	switch v.Type {
	case bson.TypeNull:
		return []bucket.SlotProblem{{Kind: bucket.KindNullSlot, Reason: "slot is null"}}
	case bson.TypeEmbeddedDocument:
	default:
		return []bucket.SlotProblem{{Kind: bucket.KindSlotType, Reason: fmt.Sprintf("slot is %s, not a document", v.Type)}}
	}
	c := &refChecker{}
	doc := bson.Raw(v.Value)
	c.fields("slot", doc, refSlotFields)
	msg, msgErr := doc.LookupErr("msg")
	if msgErr == nil && msg.Type == bson.TypeEmbeddedDocument {
		c.message(bson.Raw(msg.Value), seq)
	}
	c.emptyShape(doc)
	c.repeated("slot", doc)
	if msgErr == nil && msg.Type == bson.TypeEmbeddedDocument {
		c.repeated("msg", bson.Raw(msg.Value))
	}
	if rev, err := doc.LookupErr("revoke"); err == nil && rev.Type == bson.TypeEmbeddedDocument {
		c.repeated("slot.revoke", bson.Raw(rev.Value))
	}
	if msgErr == nil && msg.Type == bson.TypeEmbeddedDocument {
		if push, err := bson.Raw(msg.Value).LookupErr("offline_push"); err == nil && push.Type == bson.TypeEmbeddedDocument {
			c.repeated("msg.offline_push", bson.Raw(push.Value))
		}
	}
	return c.out
}

// repeated reports each field doc holds more than once, in the order of
// their second appearance.
func (c *refChecker) repeated(where string, doc bson.Raw) {
	var keys []string
	counts := map[string]int{}
	_ = refEachElement(doc, func(key []byte, _ bson.RawValue) {
		if counts[string(key)]++; counts[string(key)] == 2 {
			keys = append(keys, string(key))
		}
	})
	for _, k := range keys {
		c.add(bucket.KindDuplicate, "%s holds %d fields named %s (readers disagree on which counts)", where, counts[k], bucket.EscapeUntrusted(k, 40))
	}
}

// refSlotMarker is the reason refDecodeBucket shows for a slot: the first problem
// refCheckSlot finds, except the shape of an empty slot, which the server itself
// leaves behind when a read or a delete lands on a hole and which changes
// nothing a reader sees. check still reports it.
func refSlotMarker(v bson.RawValue, seq int64) string {
	for _, p := range refCheckSlot(v, seq) {
		if p.Kind != bucket.KindEmptySlot {
			return p.Reason
		}
	}
	return ""
}

type refChecker struct{ out []bucket.SlotProblem }

func (c *refChecker) add(kind bucket.ProblemKind, format string, args ...any) {
	c.out = append(c.out, bucket.SlotProblem{Kind: kind, Reason: fmt.Sprintf(format, args...)})
}

// fields checks that every field of specs is present with its type; the
// missing ones are reported together, so an empty {} is one problem, not 22.
func (c *refChecker) fields(where string, doc bson.Raw, specs []refFieldSpec) {
	var missing []string
	for _, f := range specs {
		v, err := doc.LookupErr(f.name)
		if err != nil {
			if !f.mayLack {
				missing = append(missing, f.name)
			}
			continue
		}
		c.value(where, f.name, v, f.typ)
	}
	if len(missing) > 0 {
		c.add(bucket.KindMissingField, "%s lacks %s", where, strings.Join(missing, ", "))
	}
}

// value checks field name of document where; the path is only built for a
// problem, as this runs for every field of every slot read.
func (c *refChecker) value(where, name string, v bson.RawValue, typ refFieldType) {
	wrong := func(want string) {
		if _, ok := refStringBytes(v); v.Type == bson.TypeString && !ok {
			c.add(bucket.KindFieldType, "%s.%s is a damaged string", where, name)
			return
		}
		c.add(bucket.KindFieldType, "%s.%s is %s, not %s", where, name, v.Type, want)
	}
	switch typ {
	case rTString:
		if _, ok := refStringBytes(v); !ok {
			wrong("a string")
		}
	case rTInt32:
		if n, ok := refInteger(v); !ok || n < math.MinInt32 || n > math.MaxInt32 {
			wrong("a 32-bit integer")
		}
	case rTInt64:
		if _, ok := refInteger(v); !ok {
			wrong("an integer")
		}
	case rTBool:
		if _, ok := v.BooleanOK(); !ok {
			wrong("a boolean")
		}
	case rTStrings, rTStringsOrNull:
		if v.Type == bson.TypeNull && typ == rTStringsOrNull {
			return
		}
		if v.Type != bson.TypeArray {
			wrong("an array of strings")
			return
		}
		c.elements(where, name, bson.Raw(v.Value), bson.TypeString, "a string")
	case rTBoolMapOrNull:
		if v.Type == bson.TypeNull {
			return
		}
		if v.Type != bson.TypeEmbeddedDocument {
			wrong("a document of booleans")
			return
		}
		c.elements(where, name, bson.Raw(v.Value), bson.TypeBoolean, "a boolean")
	case rTPushOrNull, rTMsgOrNull, rTRevokeOrNull:
		if v.Type == bson.TypeNull {
			return
		}
		if v.Type != bson.TypeEmbeddedDocument {
			wrong("a document or null")
			return
		}
		switch typ {
		case rTPushOrNull:
			c.fields(where+"."+name, bson.Raw(v.Value), refPushFields)
		case rTRevokeOrNull:
			c.fields(where+"."+name, bson.Raw(v.Value), refRevokeFields)
		}
		// msg is checked by message, which also knows the seq.
	}
}

// elements checks that every value of an array or document has type want;
// one problem per container is enough to explain it.
func (c *refChecker) elements(where, name string, doc bson.Raw, want bson.Type, wantName string) {
	var wrong bson.Type
	err := refEachElement(doc, func(_ []byte, v bson.RawValue) {
		if v.Type != want && wrong == 0 {
			wrong = v.Type
		}
	})
	switch {
	case err != nil:
		c.add(bucket.KindFieldType, "%s.%s is not readable: %v", where, name, err)
	case wrong != 0:
		c.add(bucket.KindFieldType, "%s.%s holds %s, not %s", where, name, wrong, wantName)
	}
}

func (c *refChecker) message(msg bson.Raw, seq int64) {
	c.fields("msg", msg, refMsgFields)
	sendTime, _ := refIntField(msg, "send_time")
	if got, ok := refIntField(msg, "seq"); ok && sendTime != 0 && got != seq {
		c.add(bucket.KindSeqMismatch, "message says seq %d but its slot holds seq %d", got, seq)
	}
	content, err := msg.LookupErr("content")
	if err != nil {
		return
	}
	text, ok := refStringBytes(content)
	if !ok {
		return
	}
	if len(text) > bucket.MaxContentBytes {
		c.add(bucket.KindContentSize, "content is %d bytes, over the %d-byte limit", len(text), bucket.MaxContentBytes)
	}
	if ct, ok := refIntField(msg, "content_type"); ok && bucket.KnownContentType(ct) && !refIsJSONObject(text) {
		c.add(bucket.KindContentJSON, "content of type %d is not a JSON object", ct)
	}
}

// emptyShape checks a slot that holds neither message nor revoke for fields
// OpenIM never writes (a del_list or is_read true is OpenIM's own doing).
func (c *refChecker) emptyShape(doc bson.Raw) {
	msg, err := doc.LookupErr("msg")
	if err != nil || msg.Type != bson.TypeNull {
		return
	}
	if rev, err := doc.LookupErr("revoke"); err == nil && rev.Type != bson.TypeNull {
		return
	}
	_ = refEachElement(doc, func(key []byte, _ bson.RawValue) {
		switch string(key) {
		case "msg", "revoke", "del_list", "is_read":
		default:
			c.add(bucket.KindEmptySlot, "empty slot has an extra field %q", key)
		}
	})
}

var errRefMalformed = errors.New("malformed BSON")

// refEachElement calls fn for each element of a document or array, without
// the allocations of bson.Raw.Elements: it runs for every slot read.
func refEachElement(doc bson.Raw, fn func(key []byte, v bson.RawValue)) error {
	if len(doc) < 5 {
		return errRefMalformed
	}
	n := int(binary.LittleEndian.Uint32(doc))
	if n < 5 || n > len(doc) || doc[n-1] != 0 {
		return errRefMalformed
	}
	rest := doc[4 : n-1]
	for len(rest) > 0 {
		elem, next, ok := bsoncore.ReadElement(rest)
		if !ok {
			return errRefMalformed
		}
		key, err := elem.KeyBytesErr()
		if err != nil {
			return err
		}
		v, err := elem.ValueErr()
		if err != nil {
			return err
		}
		fn(key, bson.RawValue{Type: bson.Type(v.Type), Value: v.Data})
		rest = next
	}
	return nil
}

// refInteger reads a whole number stored as int32, int64 or an integral
// double: relaxed Extended JSON imports store small numbers as int32, and the
// driver decodes all three into Go integers. The OK accessors never panic on
// truncated bytes, which the plain ones do.
func refInteger(v bson.RawValue) (int64, bool) {
	if n, ok := v.Int32OK(); ok {
		return int64(n), true
	}
	if n, ok := v.Int64OK(); ok {
		return n, true
	}
	if f, ok := v.DoubleOK(); ok && f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
		return int64(f), true
	}
	return 0, false
}

func refIntField(doc bson.Raw, key string) (int64, bool) {
	v, err := doc.LookupErr(key)
	if err != nil {
		return 0, false
	}
	return refInteger(v)
}

func refIsJSONObject(s []byte) bool {
	t := bytes.TrimLeft(s, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(s)
}

// refStringBytes is the text of a string value without copying it, as this
// runs for every string of every slot read; ok is false for another type or
// truncated bytes.
func refStringBytes(v bson.RawValue) (text []byte, ok bool) {
	if v.Type != bson.TypeString || len(v.Value) < 5 {
		return nil, false
	}
	n := int64(int32(binary.LittleEndian.Uint32(v.Value)))
	if n < 1 || n > int64(len(v.Value)-4) || v.Value[4+n-1] != 0 {
		return nil, false
	}
	return v.Value[4 : 4+n-1], true
}
