package bucket

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
)

// ProblemKind names one way a stored document breaks the storage contract.
// check counts problems by kind; the UI shows the reason as a marker.
type ProblemKind string

// The kinds of problem chatlens knows.
const (
	KindDocID        ProblemKind = "doc-id"        // doc_id missing, not a string, not "<cid>:<index>"
	KindLength       ProblemKind = "msgs-length"   // msgs missing, not an array, not 100 slots
	KindNullSlot     ProblemKind = "null-slot"     // a msgs element is null
	KindSlotType     ProblemKind = "slot-type"     // a msgs element is not a document
	KindMissingField ProblemKind = "missing-field" // a field of a slot, message, revoke, push is absent
	KindFieldType    ProblemKind = "field-type"    // a field holds the wrong BSON type
	KindSeqMismatch  ProblemKind = "seq-mismatch"  // msg.seq disagrees with the slot's position
	KindEmptySlot    ProblemKind = "empty-slot"    // an empty slot with a field OpenIM never writes
	KindContentJSON  ProblemKind = "content-json"  // content of a known type is not a JSON object
	KindContentSize  ProblemKind = "content-size"  // content larger than MaxContentBytes
	KindIndex        ProblemKind = "index"         // the unique {doc_id: 1} index is absent
	KindSeqRecord    ProblemKind = "seq-record"    // seq.max_seq below the last filled slot, or no seq document
	KindDuplicate    ProblemKind = "duplicate"     // a field twice in one document (doc_id, msgs; a slot's del_list, any field of a slot, message or revoke), or two seq_user documents for one user and conversation
)

// DuplicateFields names the top-level fields raw holds more than once. BSON
// allows it, JSON parsers keep the last, and the driver's lookups read the
// first: a document with two doc_id is one bucket to one reader and
// another to the next.
func DuplicateFields(raw bson.Raw) []string {
	elems, err := raw.Elements()
	if err != nil {
		return nil
	}
	seen := make(map[string]int, len(elems))
	var dups []string
	for _, e := range elems {
		k := e.Key()
		if seen[k]++; seen[k] == 2 {
			dups = append(dups, k)
		}
	}
	return dups
}

// MaxContentBytes is the content size above which a message is flagged: far
// beyond any real message, and large enough to stall a renderer.
const MaxContentBytes = 1 << 20

// SlotProblem is one way a stored slot breaks the contract.
type SlotProblem struct {
	Kind   ProblemKind
	Reason string
}

// fieldType is the BSON shape a contract field must have.
type fieldType int

const (
	tString fieldType = iota
	tInt32
	tInt64
	tBool
	tStrings       // array of strings
	tStringsOrNull // array of strings or null
	tBoolMapOrNull // document of bools or null
	tPushOrNull    // OfflinePush document or null
	tMsgOrNull     // MsgData document or null
	tRevokeOrNull  // Revoke document or null
)

type fieldSpec struct {
	name string
	typ  fieldType
}

var slotFields = []fieldSpec{{"msg", tMsgOrNull}, {"revoke", tRevokeOrNull}, {"del_list", tStrings}, {"is_read", tBool}}

// slotMayLack are the slot fields OpenIM's own writes can leave absent: its
// physical delete (mgo/msg.go DeleteMsgsInOneDocByIndex) replaces a slot
// with {msg: null} alone, and the $set / $addToSet that may follow add
// revoke, is_read or del_list one at a time. Absent, they read as null, []
// and false, as OpenIM's decoder reads them.
var slotMayLack = uint32(1<<fSlotRevoke | 1<<fSlotDelList | 1<<fSlotIsRead)

var msgFields = []fieldSpec{
	{"send_id", tString}, {"recv_id", tString}, {"group_id", tString}, {"client_msg_id", tString},
	{"server_msg_id", tString}, {"sender_platform_id", tInt32}, {"sender_nickname", tString},
	{"sender_face_url", tString}, {"session_type", tInt32}, {"msg_from", tInt32}, {"content_type", tInt32},
	{"content", tString}, {"seq", tInt64}, {"send_time", tInt64}, {"create_time", tInt64}, {"status", tInt32},
	{"is_read", tBool}, {"options", tBoolMapOrNull}, {"offline_push", tPushOrNull},
	{"at_user_id_list", tStringsOrNull}, {"attached_info", tString}, {"ex", tString},
}

var revokeFields = []fieldSpec{{"role", tInt32}, {"user_id", tString}, {"nickname", tString}, {"time", tInt64}}

var pushFields = []fieldSpec{{"title", tString}, {"desc", tString}, {"ex", tString}, {"ios_push_sound", tString}, {"ios_badge_count", tBool}}

// CheckSlot inspects one element of a msgs array, at the position holding
// seq, against the contract of OPENIM.md. It reads the raw BSON, so it sees
// what a lenient decode hides: missing fields, nulls, numbers where strings
// belong, content that is not JSON. nil means the slot is sound.
func CheckSlot(v bson.RawValue, seq int64) []SlotProblem {
	switch v.Type {
	case bson.TypeNull:
		return []SlotProblem{{KindNullSlot, "slot is null"}}
	case bson.TypeEmbeddedDocument:
	default:
		return []SlotProblem{{KindSlotType, fmt.Sprintf("slot is %s, not a document", v.Type)}}
	}
	var slot, msg fieldTable
	indexSlot(v.Value, &slot, &msg)
	return checkIndexed(v.Value, &slot, &msg, seq)
}

// indexSlot indexes a slot document and, when its msg is a document, the
// message: the tables both the checks and the decoder read.
func indexSlot(doc []byte, slot, msg *fieldTable) {
	slot.index(doc, slotFields)
	if m, ok := slot.get(fSlotMsg); ok && m.Type == bson.TypeEmbeddedDocument {
		msg.index(m.Value, msgFields)
	}
}

// checkIndexed is CheckSlot over the tables of indexSlot.
func checkIndexed(doc []byte, slot, msg *fieldTable, seq int64) []SlotProblem {
	c := &checker{}
	c.fields("slot", slot, slotFields, slotMayLack)
	m, isMsg := slot.get(fSlotMsg)
	isMsg = isMsg && m.Type == bson.TypeEmbeddedDocument
	if isMsg {
		c.message(msg, seq)
	}
	c.emptyShape(doc, slot)
	// A field twice: the tables flag it (odd) as they are built, so a sound
	// slot costs nothing more; revoke and offline_push, rarely set, are
	// looked at whenever they are documents.
	if slot.odd {
		c.repeated("slot", doc)
	}
	if isMsg && msg.odd {
		c.repeated("msg", m.Value)
	}
	if r, ok := slot.get(fSlotRevoke); ok && r.Type == bson.TypeEmbeddedDocument {
		c.repeated("slot.revoke", r.Value)
	}
	if isMsg {
		if p, ok := msg.get(fMsgOfflinePush); ok && p.Type == bson.TypeEmbeddedDocument {
			c.repeated("msg.offline_push", p.Value)
		}
	}
	return c.out
}

// markerOf is the reason DecodeBucket shows for a slot: the first problem
// CheckSlot finds, except an extra field on an empty slot, which changes
// nothing a reader sees. check still reports it.
func markerOf(problems []SlotProblem) string {
	for _, p := range problems {
		if p.Kind != KindEmptySlot {
			return p.Reason
		}
	}
	return ""
}

type checker struct{ out []SlotProblem }

func (c *checker) add(kind ProblemKind, format string, args ...any) {
	c.out = append(c.out, SlotProblem{kind, fmt.Sprintf(format, args...)})
}

// fields checks that every field of specs is present with its type, except
// that the fields of bit set mayLack may be absent; the missing ones are
// reported together, so an empty {} is one problem, not 22.
func (c *checker) fields(where string, t *fieldTable, specs []fieldSpec, mayLack uint32) {
	var missing []string
	for i, f := range specs {
		v, ok := t.get(i)
		if !ok {
			if mayLack&(1<<i) == 0 {
				missing = append(missing, f.name)
			}
			continue
		}
		c.value(where, f.name, v, f.typ)
	}
	if len(missing) > 0 {
		c.add(KindMissingField, "%s lacks %s", where, strings.Join(missing, ", "))
	}
}

// value checks field name of document where; the path is only built for a
// problem, as this runs for every field of every slot read.
func (c *checker) value(where, name string, v bson.RawValue, typ fieldType) {
	switch typ {
	case tString:
		if _, ok := stringBytes(v); !ok {
			c.wrong(where, name, v, "a string")
		}
	case tInt32:
		if n, ok := integer(v); !ok || n < math.MinInt32 || n > math.MaxInt32 {
			c.wrong(where, name, v, "a 32-bit integer")
		}
	case tInt64:
		if _, ok := integer(v); !ok {
			c.wrong(where, name, v, "an integer")
		}
	case tBool:
		if _, ok := v.BooleanOK(); !ok {
			c.wrong(where, name, v, "a boolean")
		}
	case tStrings, tStringsOrNull:
		if v.Type == bson.TypeNull && typ == tStringsOrNull {
			return
		}
		if v.Type != bson.TypeArray {
			c.wrong(where, name, v, "an array of strings")
			return
		}
		c.elements(where, name, bson.Raw(v.Value), bson.TypeString, "a string")
	case tBoolMapOrNull:
		if v.Type == bson.TypeNull {
			return
		}
		if v.Type != bson.TypeEmbeddedDocument {
			c.wrong(where, name, v, "a document of booleans")
			return
		}
		c.elements(where, name, bson.Raw(v.Value), bson.TypeBoolean, "a boolean")
	case tPushOrNull, tMsgOrNull, tRevokeOrNull:
		if v.Type == bson.TypeNull {
			return
		}
		if v.Type != bson.TypeEmbeddedDocument {
			c.wrong(where, name, v, "a document or null")
			return
		}
		switch typ {
		case tPushOrNull:
			c.nested(path(where, name), v, pushFields)
		case tRevokeOrNull:
			c.nested(path(where, name), v, revokeFields)
		}
		// msg is checked by message, which also knows the seq.
	}
}

// repeated reports each field document where holds more than once: BSON
// allows it, readers disagree on which one counts (the driver's lookups
// take the first, a decode into a struct the last), and the next update of
// the field may fail or touch only one. FerretDB v2 with DocumentDB leaves
// slots with two del_list fields after one $addToSet naming several slots'
// del_list, some of which held the user already; OpenIM never sends that
// shape (its PushUnique names one slot per update).
func (c *checker) repeated(where string, doc []byte) {
	var buf [24][]byte // a slot has 4 fields, a message 22: no allocation
	keys, twice := buf[:0], false
	_ = eachElement(doc, func(key []byte, _ bson.RawValue) {
		for _, k := range keys {
			twice = twice || bytes.Equal(k, key)
		}
		keys = append(keys, key)
	})
	if !twice {
		return
	}
	var order []string
	counts := map[string]int{}
	for _, k := range keys {
		if counts[string(k)]++; counts[string(k)] == 2 {
			order = append(order, string(k))
		}
	}
	for _, k := range order {
		c.add(KindDuplicate, "%s holds %d fields named %s (readers disagree on which counts)", where, counts[k], EscapeUntrusted(k, 40))
	}
}

// wrong reports field name of where holding v instead of want.
func (c *checker) wrong(where, name string, v bson.RawValue, want string) {
	if _, ok := stringBytes(v); v.Type == bson.TypeString && !ok {
		c.add(KindFieldType, "%s.%s is a damaged string", where, name)
		return
	}
	c.add(KindFieldType, "%s.%s is %s, not %s", where, name, v.Type, want)
}

// nested checks the fields of an embedded document.
func (c *checker) nested(where string, v bson.RawValue, specs []fieldSpec) {
	var t fieldTable
	t.index(v.Value, specs)
	c.fields(where, &t, specs, 0)
}

// path is where.name, without building the two paths the contract has.
func path(where, name string) string {
	switch {
	case where == "slot" && name == "revoke":
		return "slot.revoke"
	case where == "msg" && name == "offline_push":
		return "msg.offline_push"
	}
	return where + "." + name
}

// elements checks that every value of an array or document has type want;
// one problem per container is enough to explain it.
func (c *checker) elements(where, name string, doc bson.Raw, want bson.Type, wantName string) {
	var wrong bson.Type
	err := eachElement(doc, func(_ []byte, v bson.RawValue) {
		if v.Type != want && wrong == 0 {
			wrong = v.Type
		}
	})
	switch {
	case err != nil:
		c.add(KindFieldType, "%s.%s is not readable: %v", where, name, err)
	case wrong != 0:
		c.add(KindFieldType, "%s.%s holds %s, not %s", where, name, wrong, wantName)
	}
}

func (c *checker) message(msg *fieldTable, seq int64) {
	c.fields("msg", msg, msgFields, 0)
	sendTime, _ := msg.integer(fMsgSendTime)
	if got, ok := msg.integer(fMsgSeq); ok && sendTime != 0 && got != seq {
		c.add(KindSeqMismatch, "message says seq %d but its slot holds seq %d", got, seq)
	}
	content, ok := msg.get(fMsgContent)
	if !ok {
		return
	}
	text, ok := stringBytes(content)
	if !ok {
		return
	}
	if len(text) > MaxContentBytes {
		c.add(KindContentSize, "content is %d bytes, over the %d-byte limit", len(text), MaxContentBytes)
	}
	if ct, ok := msg.integer(fMsgContentType); ok && KnownContentType(ct) && !isJSONObject(text) {
		c.add(KindContentJSON, "content of type %d is not a JSON object", ct)
	}
}

// emptyShape checks a slot that holds neither message nor revoke for fields
// OpenIM never writes. A del_list or is_read true on such a slot is
// OpenIM's own doing, not a problem: its delete-for-me checks no message is
// there (internal/rpc/msg/delete.go), and its mark-read filter
// {"msgs.N.msg.send_id": {$ne: reader}} matches a null msg
// (mgo/msg.go MarkSingleChatMsgsAsRead).
func (c *checker) emptyShape(doc bson.Raw, slot *fieldTable) {
	msg, ok := slot.get(fSlotMsg)
	if !ok || msg.Type != bson.TypeNull {
		return
	}
	if rev, ok := slot.get(fSlotRevoke); ok && rev.Type != bson.TypeNull {
		return
	}
	_ = eachElement(doc, func(key []byte, _ bson.RawValue) {
		switch string(key) {
		case "msg", "revoke", "del_list", "is_read":
		default:
			c.add(KindEmptySlot, "empty slot has an extra field %q", key)
		}
	})
}

var errMalformed = errors.New("malformed BSON")

// eachElement calls fn for each element of a document or array, without
// the allocations of bson.Raw.Elements: it runs for every slot read.
func eachElement(doc bson.Raw, fn func(key []byte, v bson.RawValue)) error {
	if len(doc) < 5 {
		return errMalformed
	}
	n := int(binary.LittleEndian.Uint32(doc))
	if n < 5 || n > len(doc) || doc[n-1] != 0 {
		return errMalformed
	}
	rest := doc[4 : n-1]
	for len(rest) > 0 {
		elem, next, ok := bsoncore.ReadElement(rest)
		if !ok {
			return errMalformed
		}
		fn(splitElement(elem))
		rest = next
	}
	return nil
}

// integer reads a whole number stored as int32, int64 or an integral
// double: relaxed Extended JSON imports store small numbers as int32, and the
// driver decodes all three into Go integers. The OK accessors never panic on
// truncated bytes, which the plain ones do.
func integer(v bson.RawValue) (int64, bool) {
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

// KnownContentType reports the content types whose content OPENIM.md
// defines as a JSON object: the message types and the notifications.
func KnownContentType(ct int64) bool {
	switch {
	case ct >= 101 && ct <= 110, ct == 114, ct == 117, ct == 118:
		return true
	case ct >= 1000 && ct <= 4999:
		return true
	}
	return false
}

func isJSONObject(s []byte) bool {
	t := bytes.TrimLeft(s, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid(s)
}

// stringBytes is the text of a string value without copying it, as this
// runs for every string of every slot read; ok is false for another type or
// truncated bytes.
func stringBytes(v bson.RawValue) (text []byte, ok bool) {
	if v.Type != bson.TypeString || len(v.Value) < 5 {
		return nil, false
	}
	n := int64(int32(binary.LittleEndian.Uint32(v.Value)))
	if n < 1 || n > int64(len(v.Value)-4) || v.Value[4+n-1] != 0 {
		return nil, false
	}
	return v.Value[4 : 4+n-1], true
}
