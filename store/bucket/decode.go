package bucket

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Bucket is a decoded msg document as read: always BucketSize positions,
// whatever the stored array held, each with the seq its position encodes.
// Decoding never fails: what does not fit the contract is kept as a Problem
// so it can be drawn with a marker and reported by check.
type Bucket struct {
	DocID    string
	Cid      string
	Index    int64
	Slots    [BucketSize]StoredSlot
	Problems []string // document-level: array length, doc_id form, ...
	// cut, when set, says only positions cutFirst..cutLast were read (the
	// edge of a range): the others say nothing of what is stored (Holds).
	cut               bool
	cutFirst, cutLast int
}

// Holds reports whether b says what is stored at seq: every position of a
// bucket read whole; of one read cut (DecodeCut), the positions read and
// the ones the cache filled since.
func (b *Bucket) Holds(seq int64) bool {
	if BucketIndex(seq) != b.Index {
		return false
	}
	i := SlotIndex(seq)
	return !b.cut || i >= b.cutFirst && i <= b.cutLast || b.Slots[i].Cached
}

// IsCut reports a bucket read only in part (DecodeCut).
func (b *Bucket) IsCut() bool { return b.cut }

// StoredSlot is one position of a bucket as stored.
type StoredSlot struct {
	Seq     int64
	Slot    *Slot  // nil when the bucket, the array element or the slot is absent or unreadable
	Problem string // why this slot breaks the contract, "" when it does not
	Cached  bool   // true when the slot came from the cache layer
	// Unstored: cached, and the backend's copy of the bucket read with it
	// holds no message there (Redis has it before MongoDB does).
	Unstored bool
	// Erased: the stored slot is what OpenIM's physical delete leaves over
	// a message: msgs.<i> set to {msg: nil} (mgo/msg.go
	// DeleteMsgsInOneDocByIndex), maybe with the fields a later delete for
	// me, mark read or admin revoke appended, not the msg, revoke,
	// del_list, is_read every slot of a bucket OpenIM creates starts as.
	// So the seq was sent (the server does not refuse a physical delete of
	// a seq never sent, which reads the same: the one case it gets wrong):
	// a hole that still counts towards the newest seq.
	Erased bool
}

// Missing reports a bucket that is not stored at all: every slot a hole.
func MissingBucket(cid string, index int64) *Bucket {
	b := &Bucket{DocID: DocID(cid, index), Cid: cid, Index: index}
	for i := range b.Slots {
		b.Slots[i].Seq = FirstSeq(index) + int64(i)
	}
	return b
}

// DecodeBucket decodes a raw msg document tolerantly.
func DecodeBucket(raw bson.Raw) *Bucket {
	b := &Bucket{}
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
		cid, index, perr := ParseDocID(b.DocID)
		b.Cid, b.Index = cid, index
		if perr != nil {
			b.Problems = append(b.Problems, perr.Error())
		}
	}
	for i := range b.Slots {
		b.Slots[i].Seq = FirstSeq(b.Index) + int64(i)
	}
	elems, problem := msgsOf(raw)
	if problem != "" {
		b.Problems = append(b.Problems, problem)
		return b
	}
	if len(elems) != BucketSize {
		b.Problems = append(b.Problems, fmt.Sprintf("msgs has %d slots, not %d", len(elems), BucketSize))
	}
	var d slotDecoder
	n := min(len(elems), BucketSize)
	for i := 0; i < n; i++ {
		d.decodeSlot(&b.Slots[i], elems[i], n-i)
	}
	for i := len(elems); i < BucketSize; i++ {
		b.Slots[i].Problem = problemShortArray
	}
	return b
}

// msgsOf is the elements of raw's msgs, or the document-level problem
// that leaves it none.
func msgsOf(raw bson.Raw) ([]bson.RawValue, string) {
	msgsVal, err := raw.LookupErr("msgs")
	if err != nil {
		return nil, "msgs is missing"
	}
	arr, ok := msgsVal.ArrayOK()
	if !ok {
		return nil, fmt.Sprintf("msgs is %s, not an array", msgsVal.Type)
	}
	elems, err := arr.Values()
	if err != nil {
		return nil, "msgs is not a readable array: " + err.Error()
	}
	return elems, ""
}

// DecodeCut decodes bucket index of cid as read cut to n positions from
// first (sliced: raw's msgs starts at slot first, as FindSlotRanges cuts
// it; raw not nil): those positions come back as DecodeBucket gives them,
// and so do the document-level problems a cut can show (a msgs missing or
// not an array; not its length, which the cut hides). The other positions
// are not read: Holds says so.
func DecodeCut(raw bson.Raw, sliced bool, cid string, index int64, first, n int) *Bucket {
	b := MissingBucket(cid, index)
	b.cut, b.cutFirst, b.cutLast = true, first, first+n-1
	if _, problem := msgsOf(raw); problem != "" {
		b.Problems = append(b.Problems, problem)
	}
	copy(b.Slots[first:first+n], DecodeSlots(raw, sliced, index, first, n))
	return b
}

// decodeSlot decodes one element of msgs, left being the elements still to
// decode, itself included.
func (d *slotDecoder) decodeSlot(s *StoredSlot, v bson.RawValue, left int) {
	switch v.Type {
	case bson.TypeNull:
		s.Problem = "slot is null"
		return
	case bson.TypeEmbeddedDocument:
	default:
		s.Problem = fmt.Sprintf("slot is %s, not a document", v.Type)
		return
	}
	indexSlot(v.Value, &d.slot, &d.msg)
	slot, ok := d.decode(v.Value, left)
	if !ok {
		slot = new(Slot)
		if err := bson.Unmarshal(v.Value, slot); err != nil {
			s.Problem = "slot does not decode: " + err.Error()
			return
		}
	}
	s.Slot = slot
	s.Erased = slot.Msg == nil && erased(v.Value)
	s.Problem = seqProblem(slot, s.Seq)
	// What a lenient decode hides (missing fields, nulls, bad content) still
	// deserves a marker.
	if s.Problem == "" {
		s.Problem = markerOf(checkIndexed(v.Value, &d.slot, &d.msg, s.Seq))
	}
}

// problemShortArray marks the positions a short msgs array does not reach:
// nothing is stored there, so they do not extend the conversation.
const problemShortArray = "slot is missing from a short msgs array"

// seqProblem is the marker of a message whose seq disagrees with the
// position holding it, "" when it agrees (or the slot holds no message).
func seqProblem(slot *Slot, seq int64) string {
	if slot != nil && slot.Msg != nil && slot.Msg.SendTime != 0 && slot.Msg.Seq != seq {
		return fmt.Sprintf("message says seq %d but its slot holds seq %d", slot.Msg.Seq, seq)
	}
	return ""
}

// CachedSlot is the position seq holding slot, as read from the cache
// layer: a cached message whose seq disagrees with its key gets the same
// marker the stored one gets.
func CachedSlot(seq int64, slot *Slot) StoredSlot {
	return StoredSlot{Seq: seq, Slot: slot, Cached: true, Problem: seqProblem(slot, seq)}
}

// IsHole reports a position that holds no message: a missing bucket or slot,
// a null msg, send_time 0 (rule 4 in projection's package doc), or the stand-in
// OpenIM caches in Redis for such a seq (see IsStandIn).
func (s StoredSlot) IsHole() bool {
	return s.Slot == nil || s.Slot.Msg == nil || s.Slot.Msg.SendTime == 0 || s.Slot.Msg.IsStandIn()
}

// IsStandIn reports the message OpenIM makes up for a seq that holds none
// and caches in Redis for a day (mgo/msg.go FindSeqs): seq, status 4
// (deleted) and the previous message's send time, nothing else. A real
// message always has a sender, a content type and content.
func (m *MsgData) IsStandIn() bool {
	return m.Status == StatusDeleted && m.Content == "" && m.ContentType == 0 &&
		m.SendID == "" && m.ClientMsgID == ""
}

// filled reports a position that holds something: a message, or a stored
// element that does not read as one and is shown with its marker.
func (s StoredSlot) filled() bool {
	return !s.IsHole() || s.Problem != "" && s.Problem != problemShortArray
}

// erased tells a slot document whose msg is null and whose fields are not
// msg, revoke, del_list, is_read in that order, as OpenIM creates every
// slot (see StoredSlot.Erased): a physical delete leaves msg alone, and a
// later mark read ($ne on msg.send_id matches a null msg), delete for me
// or admin revoke appends its field after it, so even with all four the
// order tells.
func erased(slot []byte) bool {
	elems, err := bson.Raw(slot).Elements()
	if err != nil || len(elems) == 0 || elems[0].Key() != "msg" || elems[0].Value().Type != bson.TypeNull {
		return false
	}
	created := []string{"msg", "revoke", "del_list", "is_read"}
	if len(elems) != len(created) {
		return true
	}
	for i, e := range elems {
		if e.Key() != created[i] {
			return true
		}
	}
	return false
}

// LastSentSeq is the highest seq in b that holds a message, a malformed
// slot or an erased one (a message physically deleted), 0 if none: where
// the messages sent end, as far as the bucket tells. Without Redis's
// MALLOC_SEQ it is the newest seq a reader is given.
func (b *Bucket) LastSentSeq() int64 {
	for i := BucketSize - 1; i >= 0; i-- {
		if b.Slots[i].filled() || b.Slots[i].Erased {
			return b.Slots[i].Seq
		}
	}
	return 0
}

// LastFilledSeq is the highest seq in b holding a message or a malformed
// slot (a malformed slot is still a slot: it is shown with its marker), 0
// if none.
func (b *Bucket) LastFilledSeq() int64 {
	for i := BucketSize - 1; i >= 0; i-- {
		if b.Slots[i].filled() {
			return b.Slots[i].Seq
		}
	}
	return 0
}

// DecodeSlots decodes positions first..first+n-1 of bucket index from raw,
// as FindSlots returned it (sliced: raw's msgs starts at slot first), and
// only those: each comes back as DecodeBucket would give it. nil raw is a
// bucket not stored: all holes.
func DecodeSlots(raw bson.Raw, sliced bool, index int64, first, n int) []StoredSlot {
	out := make([]StoredSlot, n)
	for i := range out {
		out[i].Seq = FirstSeq(index) + int64(first+i)
	}
	if raw == nil {
		return out
	}
	// A msgs that is missing, not an array or not readable holds no slot:
	// the bucket's problem, as in DecodeBucket.
	v, err := raw.LookupErr("msgs")
	if err != nil {
		return out
	}
	arr, ok := v.ArrayOK()
	if !ok {
		return out
	}
	elems, err := arr.Values()
	if err != nil {
		return out
	}
	offset, end := 0, min(len(elems), BucketSize) // end: the first position the array does not reach
	if sliced {
		offset, end = first, min(first+len(elems), BucketSize)
	}
	var d slotDecoder
	for i := range out {
		pos := first + i
		if pos >= end {
			out[i].Problem = problemShortArray
			continue
		}
		d.decodeSlot(&out[i], elems[pos-offset], n-i)
	}
	return out
}
