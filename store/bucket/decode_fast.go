package bucket

import (
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// slotDecoder decodes the slots of one bucket by hand from the tables of
// indexSlot, as bson.Unmarshal would but without reflection, and with
// far fewer allocations: every string of a slot is a substring of one copy
// of the slot's bytes, and slots and messages come from shared slabs. A
// slot holding anything it does not decode exactly like the driver (an odd
// type, an unknown or repeated field) is left to bson.Unmarshal.
type slotDecoder struct {
	slot, msg fieldTable // reused for each slot
	slots     []Slot     // slab of the remaining slots
	msgs      []MsgData  // slab of messages
	left      int        // slots still to decode, this one included: no slab is larger
	text      textArena
}

// msgSlab bounds the messages allocated at once: a message kept alive
// keeps its slab alive, so a slab is a fraction of a bucket.
const msgSlab = 16

// Positions in msgFields, revokeFields and pushFields of what is decoded.
var (
	fSendID           = mustIndex(msgFields, "send_id")
	fRecvID           = mustIndex(msgFields, "recv_id")
	fGroupID          = mustIndex(msgFields, "group_id")
	fClientMsgID      = mustIndex(msgFields, "client_msg_id")
	fServerMsgID      = mustIndex(msgFields, "server_msg_id")
	fSenderPlatformID = mustIndex(msgFields, "sender_platform_id")
	fSenderNickname   = mustIndex(msgFields, "sender_nickname")
	fSenderFaceURL    = mustIndex(msgFields, "sender_face_url")
	fSessionType      = mustIndex(msgFields, "session_type")
	fMsgFrom          = mustIndex(msgFields, "msg_from")
	fCreateTime       = mustIndex(msgFields, "create_time")
	fStatus           = mustIndex(msgFields, "status")
	fMsgIsRead        = mustIndex(msgFields, "is_read")
	fOptions          = mustIndex(msgFields, "options")
	fOfflinePush      = mustIndex(msgFields, "offline_push")
	fAtUserIDList     = mustIndex(msgFields, "at_user_id_list")
	fAttachedInfo     = mustIndex(msgFields, "attached_info")
	fMsgEx            = mustIndex(msgFields, "ex")

	fRevokeRole     = mustIndex(revokeFields, "role")
	fRevokeUserID   = mustIndex(revokeFields, "user_id")
	fRevokeNickname = mustIndex(revokeFields, "nickname")
	fRevokeTime     = mustIndex(revokeFields, "time")

	fPushTitle      = mustIndex(pushFields, "title")
	fPushDesc       = mustIndex(pushFields, "desc")
	fPushEx         = mustIndex(pushFields, "ex")
	fPushSound      = mustIndex(pushFields, "ios_push_sound")
	fPushBadgeCount = mustIndex(pushFields, "ios_badge_count")
)

// decode is the slot of doc, indexed in d.slot and d.msg; ok is false when
// bson.Unmarshal must decide. left is the number of slots still to decode
// in the bucket, sizing the slab.
func (d *slotDecoder) decode(doc []byte, left int) (slot *Slot, ok bool) {
	if d.slot.odd {
		return nil, false
	}
	d.text = textArena{doc: doc}
	d.left = left
	var s Slot
	if v, present := d.slot.get(fSlotMsg); present {
		switch v.Type {
		case bson.TypeNull:
		case bson.TypeEmbeddedDocument:
			if s.Msg, ok = d.message(); !ok {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	if v, present := d.slot.get(fSlotRevoke); present {
		if s.Revoke, ok = d.revoke(v); !ok {
			return nil, false
		}
	}
	ok = d.strs(&d.slot, fSlotDelList, &s.DelList) && d.bool(&d.slot, fSlotIsRead, &s.IsRead)
	if !ok {
		return nil, false
	}
	if len(d.slots) == 0 {
		d.slots = make([]Slot, max(left, 1))
	}
	slot, d.slots = &d.slots[0], d.slots[1:]
	*slot = s
	return slot, true
}

func (d *slotDecoder) message() (*MsgData, bool) {
	t := &d.msg
	if t.odd {
		return nil, false
	}
	var m MsgData
	ok := d.str(t, fSendID, &m.SendID) && d.str(t, fRecvID, &m.RecvID) && d.str(t, fGroupID, &m.GroupID) &&
		d.str(t, fClientMsgID, &m.ClientMsgID) && d.str(t, fServerMsgID, &m.ServerMsgID) &&
		d.int32(t, fSenderPlatformID, &m.SenderPlatformID) && d.str(t, fSenderNickname, &m.SenderNickname) &&
		d.str(t, fSenderFaceURL, &m.SenderFaceURL) && d.int32(t, fSessionType, &m.SessionType) &&
		d.int32(t, fMsgFrom, &m.MsgFrom) && d.int32(t, fMsgContentType, &m.ContentType) &&
		d.str(t, fMsgContent, &m.Content) && d.int64(t, fMsgSeq, &m.Seq) && d.int64(t, fMsgSendTime, &m.SendTime) &&
		d.int64(t, fCreateTime, &m.CreateTime) && d.int32(t, fStatus, &m.Status) && d.bool(t, fMsgIsRead, &m.IsRead) &&
		d.boolMap(t, fOptions, &m.Options) && d.push(t, fOfflinePush, &m.OfflinePush) &&
		d.strs(t, fAtUserIDList, &m.AtUserIDList) && d.str(t, fAttachedInfo, &m.AttachedInfo) && d.str(t, fMsgEx, &m.Ex)
	if !ok {
		return nil, false
	}
	if len(d.msgs) == 0 {
		d.msgs = make([]MsgData, max(1, min(msgSlab, d.left)))
	}
	p := &d.msgs[0]
	d.msgs = d.msgs[1:]
	*p = m
	return p, true
}

// revoke decodes a slot's revoke: null or a document.
func (d *slotDecoder) revoke(v bson.RawValue) (*Revoke, bool) {
	switch v.Type {
	case bson.TypeNull:
		return nil, true
	case bson.TypeEmbeddedDocument:
	default:
		return nil, false
	}
	var t fieldTable
	if t.index(v.Value, revokeFields); t.odd {
		return nil, false
	}
	var r Revoke
	if !(d.int32(&t, fRevokeRole, &r.Role) && d.str(&t, fRevokeUserID, &r.UserID) &&
		d.str(&t, fRevokeNickname, &r.Nickname) && d.int64(&t, fRevokeTime, &r.Time)) {
		return nil, false
	}
	return &r, true
}

// push decodes a message's offline_push: null or a document.
func (d *slotDecoder) push(t *fieldTable, i int, dst **OfflinePush) bool {
	v, present := t.get(i)
	if !present {
		return true
	}
	switch v.Type {
	case bson.TypeNull:
		return true
	case bson.TypeEmbeddedDocument:
	default:
		return false
	}
	var pt fieldTable
	if pt.index(v.Value, pushFields); pt.odd {
		return false
	}
	var p OfflinePush
	if !(d.str(&pt, fPushTitle, &p.Title) && d.str(&pt, fPushDesc, &p.Desc) && d.str(&pt, fPushEx, &p.Ex) &&
		d.str(&pt, fPushSound, &p.IOSPushSound) && d.bool(&pt, fPushBadgeCount, &p.IOSBadgeCount)) {
		return false
	}
	*dst = &p
	return true
}

// The field decoders below leave an absent field at its zero value, as the
// driver does, and report false for any type they do not decode exactly
// as it would.

func (d *slotDecoder) str(t *fieldTable, i int, dst *string) bool {
	v, present := t.get(i)
	if !present {
		return true
	}
	text, ok := stringBytes(v)
	if ok {
		*dst = d.text.of(text)
	}
	return ok
}

func (d *slotDecoder) int32(t *fieldTable, i int, dst *int32) bool {
	v, present := t.get(i)
	if !present {
		return true
	}
	n, ok := integer(v)
	if !ok || n < math.MinInt32 || n > math.MaxInt32 {
		return false // the driver reports an overflow
	}
	*dst = int32(n)
	return true
}

func (d *slotDecoder) int64(t *fieldTable, i int, dst *int64) bool {
	v, present := t.get(i)
	if !present {
		return true
	}
	n, ok := integer(v)
	*dst = n
	return ok
}

func (d *slotDecoder) bool(t *fieldTable, i int, dst *bool) bool {
	v, present := t.get(i)
	if !present {
		return true
	}
	// The driver refuses a boolean byte other than 0 or 1.
	if v.Type != bson.TypeBoolean || len(v.Value) != 1 || v.Value[0] > 1 {
		return false
	}
	*dst = v.Value[0] == 1
	return true
}

// strs decodes an array of strings; an empty array is an empty, non-nil
// slice and null is nil, as with the driver.
func (d *slotDecoder) strs(t *fieldTable, i int, dst *[]string) bool {
	v, present := t.get(i)
	if !present {
		return true
	}
	switch v.Type {
	case bson.TypeNull:
		return true
	case bson.TypeArray:
	default:
		return false
	}
	n, ok := 0, true
	if eachElement(v.Value, func(_ []byte, e bson.RawValue) {
		_, isText := stringBytes(e)
		ok = ok && isText
		n++
	}) != nil || !ok {
		return false
	}
	out := make([]string, 0, n)
	_ = eachElement(v.Value, func(_ []byte, e bson.RawValue) {
		text, _ := stringBytes(e)
		out = append(out, d.text.of(text))
	})
	*dst = out
	return true
}

// boolMap decodes a document of booleans; an empty document is an empty,
// non-nil map and null is nil, as with the driver.
func (d *slotDecoder) boolMap(t *fieldTable, i int, dst *map[string]bool) bool {
	v, present := t.get(i)
	if !present {
		return true
	}
	switch v.Type {
	case bson.TypeNull:
		return true
	case bson.TypeEmbeddedDocument:
	default:
		return false
	}
	out, ok := make(map[string]bool), true
	if eachElement(v.Value, func(key []byte, e bson.RawValue) {
		if ok = ok && e.Type == bson.TypeBoolean && len(e.Value) == 1 && e.Value[0] <= 1; ok {
			out[d.text.of(key)] = e.Value[0] == 1 // a repeated key: the last wins, as with the driver
		}
	}) != nil || !ok {
		return false
	}
	*dst = out
	return true
}

// textArena turns byte slices of one slot document into strings that share
// a single copy of the document, made on first use.
type textArena struct {
	doc  []byte
	copy string
}

// of is b as a string; b is normally a slice of the arena's document, found
// by its capacity (a slice of doc ends where doc ends), and is copied
// alone otherwise.
func (a *textArena) of(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	off := cap(a.doc) - cap(b)
	if off < 0 || off+len(b) > len(a.doc) || &a.doc[off] != &b[0] {
		return string(b)
	}
	if a.copy == "" {
		a.copy = string(a.doc)
	}
	return a.copy[off : off+len(b)]
}
