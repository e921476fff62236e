package embedded

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

var bucketMsg = collBucket(bucket.CollMsg)

// getMsg finds the stored document of docID; nil when absent. The bytes
// belong to tx.
func getMsg(tx *bolt.Tx, docID string) []byte {
	if key, ok := mainMsgKey(docID); ok {
		return getIn(tx, bucketMsg, key)
	}
	return getIn(tx, bucketMsgOdd, oddMsgKey(docID))
}

// putMsg stores doc under its doc_id key, replacing what was there, and
// its slot index (see putMsgAt).
func putMsg(tx *bolt.Tx, doc bson.Raw) error {
	key, main := msgKeyOf(doc)
	name := bucketMsgOdd
	if main {
		name = bucketMsg
	}
	bk, err := tx.CreateBucketIfNotExists(name)
	if err != nil {
		return err
	}
	return putMsgAt(tx, bk, key, main, doc)
}

// putMsgAt stores a msg document under key of bk, the well-formed key space
// when main, with its slot index: every write of a msg document goes
// through here. The index goes first, so a failing write of the document
// leaves at most an entry that does not match it, which reads refuse.
func putMsgAt(tx *bolt.Tx, bk *bolt.Bucket, key []byte, main bool, doc []byte) error {
	if main {
		if err := putSlotIndex(tx, key, doc); err != nil {
			return err
		}
	}
	return bk.Put(key, doc)
}

func getIn(tx *bolt.Tx, bucket, key []byte) []byte {
	if bk := tx.Bucket(bucket); bk != nil {
		return bk.Get(key)
	}
	return nil
}

// FindBuckets reads the documents of docIDs: one point read each.
func (b *msgReads) FindBuckets(_ context.Context, docIDs []string) ([]bson.Raw, error) {
	out := make([]bson.Raw, 0, len(docIDs))
	err := b.db.View(func(tx *bolt.Tx) error {
		seen := make(map[string]bool, len(docIDs))
		for _, id := range docIDs {
			if seen[id] {
				continue // $in matches each document once
			}
			seen[id] = true
			if v := getMsg(tx, id); v != nil {
				b.db.countRead(v)
				b.db.read(len(v))
				out = append(out, bytes.Clone(v))
			}
		}
		return nil
	})
	return out, err
}

// BucketIDs lists the doc_ids starting with "<cid>:", from keys alone.
func (b *msgReads) BucketIDs(_ context.Context, cid string) ([]string, error) {
	var out []string
	err := b.db.View(func(tx *bolt.Tx) error {
		return eachMsgKey(tx, cid+":", msgPos{}, func(_ msgPos, docID string, v []byte) (bool, error) {
			b.db.countRead(v[:min(len(v), 1)]) // its key lies just before its value
			b.db.read(len(docID))
			out = append(out, docID)
			return true, nil
		})
	})
	return out, err
}

// msgPos is a position in the msg key spaces: the key last visited in
// space (0 well-formed, 1 odd); the zero value is the beginning.
type msgPos struct {
	space int
	key   []byte
}

// msgSpaces are the two msg key spaces, in scan order.
var msgSpaces = []struct {
	name  []byte
	main  bool
	docID func([]byte) (string, bool)
}{
	{bucketMsg, true, func(k []byte) (string, bool) { return mainMsgDocID(k), true }},
	{bucketMsgOdd, false, oddMsgDocID},
}

// eachMsgKey calls fn for each msg document after position from whose doc_id
// starts with prefix, the well-formed ones in conversation and bucket order
// first, then the odd ones. fn returns false to stop.
func eachMsgKey(tx *bolt.Tx, prefix string, from msgPos, fn func(at msgPos, docID string, val []byte) (bool, error)) error {
	for si := from.space; si < len(msgSpaces); si++ {
		space := msgSpaces[si]
		bk := tx.Bucket(space.name)
		if bk == nil {
			continue
		}
		var after []byte
		if si == from.space {
			after = from.key
		}
		for _, r := range docIDPrefixRanges(prefix, space.main) {
			c := bk.Cursor()
			k, v := c.Seek(r)
			if after != nil && bytes.Compare(after, r) >= 0 {
				if k, v = c.Seek(after); bytes.Equal(k, after) {
					k, v = c.Next()
				}
			}
			for ; k != nil && bytes.HasPrefix(k, r); k, v = c.Next() {
				id, ok := space.docID(k)
				if !ok && prefix != "" || ok && !strings.HasPrefix(id, prefix) {
					continue
				}
				if more, err := fn(msgPos{si, bytes.Clone(k)}, id, v); err != nil || !more {
					return err
				}
			}
		}
	}
	return nil
}

// NextConversationID is a loose index scan: one seek past every key of
// after in each msg key space, the smaller conversation wins.
func (b *msgReads) NextConversationID(_ context.Context, after string) (string, bool, error) {
	var next string
	var found bool
	err := b.db.View(func(tx *bolt.Tx) error {
		seek := append([]byte(after), 1)
		if after == "" {
			seek = []byte{1} // skips odd doc_ids listed under no conversation
		}
		if bk := tx.Bucket(bucketMsg); bk != nil {
			if k, _ := bk.Cursor().Seek(seek); k != nil {
				next, found = mainMsgCid(k), true
			}
		}
		if bk := tx.Bucket(bucketMsgOdd); bk != nil {
			if k, _ := bk.Cursor().Seek(seek); k != nil {
				cid := string(k[:bytes.IndexByte(k, 0)])
				if !found || cid < next {
					next, found = cid, true
				}
			}
		}
		return nil
	})
	return next, found, err
}

// InsertBucket inserts a new bucket with a fresh _id.
func (b *msgWrites) InsertBucket(ctx context.Context, doc *bucket.Doc) error {
	if err := ctx.Err(); err != nil {
		return err // an interrupted batch stops between buckets
	}
	raw, ok := encodeBucket(doc, bson.NewObjectID())
	if !ok {
		enc, err := bson.Marshal(doc)
		if err != nil {
			return fmt.Errorf("encode bucket %s: %w", doc.DocID, err)
		}
		raw = withID(enc)
	}
	return b.db.UpdateGrouped(func(tx *bolt.Tx) error {
		if getMsg(tx, doc.DocID) != nil {
			return fmt.Errorf("insert %s: %w", doc.DocID, bucket.ErrDuplicateKey)
		}
		return putMsg(tx, raw)
	})
}

// SetSlotField is updateOne({doc_id}, {$set: {"msgs.<slot>.<field>": value}}).
func (b *msgWrites) SetSlotField(ctx context.Context, docID string, slot int, field string, value any) (bool, error) {
	return b.SetSlotsField(ctx, docID, field, []bucket.SlotValue{{Slot: slot, Value: value}})
}

// SetSlotFieldIfUnset is updateOne({doc_id, "msgs.<slot>.<field>":
// {$not: {$type: "object"}}}, {$set: ...}): the field must not hold a
// document yet. The check and the write share one transaction.
func (b *msgWrites) SetSlotFieldIfUnset(ctx context.Context, docID string, slot int, field string, value any) (bool, error) {
	return b.SetSlotsFieldIfUnset(ctx, docID, field, []bucket.SlotValue{{Slot: slot, Value: value}})
}

// AddToDelList is updateOne({doc_id}, {$addToSet: {"msgs.<slot>.del_list": {$each: users}}}).
func (b *msgWrites) AddToDelList(ctx context.Context, docID string, slot int, users []string) (bool, error) {
	return b.updateMsg(ctx, docID, true, []slotEdit{{slot: slot, field: []string{"del_list"}, op: addToSet(users)}})
}

// MarkSlotRead is updateOne({doc_id, "msgs.<slot>.msg.send_id": {$ne: reader}},
// {$set: {"msgs.<slot>.is_read": true}}): a null msg or a missing send_id
// matches, as $ne does in MongoDB.
func (b *msgWrites) MarkSlotRead(ctx context.Context, docID string, slot int, reader string) (bool, error) {
	matched := false
	edit := markRead(slot, reader)
	edit.matched = &matched
	_, err := b.updateMsg(ctx, docID, false, []slotEdit{edit})
	return matched, err
}

// SetSlotsField is updateOne({doc_id}, {$set: {"msgs.<slot>.<field>": value, ...}}).
func (b *msgWrites) SetSlotsField(ctx context.Context, docID, field string, sets []bucket.SlotValue) (bool, error) {
	return b.updateMsg(ctx, docID, true, setEdits(field, sets, nil))
}

// SetSlotsFieldIfUnset is SetSlotsField whose filter requires every slot's
// field to hold no document yet: one slot set makes the whole update match
// nothing. The checks and the write share one transaction.
func (b *msgWrites) SetSlotsFieldIfUnset(ctx context.Context, docID, field string, sets []bucket.SlotValue) (bool, error) {
	unset := func(doc bson.Raw, slotPath string) bool {
		for _, v := range pathValues(docValue(doc), []string{"msgs", slotPath, field}, nil) {
			if v.Type == bson.TypeEmbeddedDocument {
				return false
			}
		}
		return true
	}
	return b.updateMsg(ctx, docID, true, setEdits(field, sets, unset))
}

// setEdits are the $set paths of sets. Each value is encoded only when its
// edit is applied: a missed update (no bucket yet, the usual case before an
// insert) encodes nothing.
func setEdits(field string, sets []bucket.SlotValue, filter func(bson.Raw, string) bool) []slotEdit {
	edits, path := make([]slotEdit, len(sets)), []string{field}
	for i, sv := range sets {
		edits[i] = slotEdit{slot: sv.Slot, filter: filter, field: path, op: setEncoded(sv.Value)}
	}
	return edits
}

// AddToDelLists is AddToDelList of each slot in one transaction, each
// slot's edit on its own, as the MongoDB backend's one update per slot.
// An error writes nothing: ran is 0.
func (b *msgWrites) AddToDelLists(ctx context.Context, docID string, slots []int, users []string) (int, error) {
	edits := make([]slotEdit, len(slots))
	for i, slot := range slots {
		edits[i] = slotEdit{slot: slot, field: []string{"del_list"}, op: addToSet(users)}
	}
	if _, err := b.updateMsg(ctx, docID, true, edits); err != nil {
		return 0, err
	}
	return len(slots), nil
}

// MarkSlotsRead is MarkSlotRead's filtered update for each slot of each
// run, in order, all in one transaction; a bucket named twice is edited as
// the earlier run left it. Every edit is made before any bucket is put, so
// an error up to then writes nothing; a put that fails (bbolt refusing it)
// leaves the buckets put before it stored, and ran counts their slots.
func (b *msgWrites) MarkSlotsRead(ctx context.Context, runs []bucket.BucketSlots, reader string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	total := 0
	for _, r := range runs {
		for _, slot := range r.Slots {
			if slot < 0 {
				return 0, fmt.Errorf("%s: slot %d is negative", r.DocID, slot)
			}
		}
		total += len(r.Slots)
	}
	// edited is a bucket to put; ranBefore counts the slots of the runs
	// before its first one.
	type edited struct {
		docID     string
		doc       bson.Raw
		ranBefore int
	}
	ran, putErr := 0, error(nil)
	err := b.db.UpdateGroupedWrites(len(runs), func(tx *bolt.Tx) error {
		var puts []edited
		at := make(map[string]int, len(runs)) // docID -> index in puts
		n := 0
		for _, r := range runs {
			start := n
			n += len(r.Slots)
			i, seen := at[r.DocID]
			old := bson.Raw(nil)
			if seen {
				old = puts[i].doc
			} else if old = getMsg(tx, r.DocID); old != nil {
				b.db.countRead(old)
			}
			if old == nil {
				continue // no such bucket: the filter matches nothing
			}
			edits := make([]slotEdit, len(r.Slots))
			for j, slot := range r.Slots {
				edits[j] = markRead(slot, reader)
			}
			doc, _, err := editedDoc(old, r.DocID, false, edits)
			if err != nil {
				return err
			}
			switch {
			case seen:
				puts[i].doc = doc
			case !bytes.Equal(doc, old):
				at[r.DocID] = len(puts)
				puts = append(puts, edited{r.DocID, doc, start})
			}
		}
		ran = total
		if len(puts) == 0 {
			return errNoChange
		}
		for _, e := range puts {
			if err := putMsg(tx, e.doc); err != nil {
				// The buckets put so far stand (committed with the
				// transaction, or with its group); ran says which.
				ran, putErr = e.ranBefore, fmt.Errorf("%s: %w", e.docID, err)
				return nil
			}
		}
		return nil
	})
	if errors.Is(err, errNoChange) {
		err = nil
	}
	if err != nil {
		return 0, err
	}
	return ran, putErr
}

// markRead is the edit of MarkSlotRead: {$ne: reader} on the slot's
// msg.send_id, then is_read set.
func markRead(slot int, reader string) slotEdit {
	notSentBy := func(doc bson.Raw, slotPath string) bool {
		vals := pathValues(docValue(doc), []string{"msgs", slotPath, "msg", "send_id"}, nil)
		return !equalsString(vals, reader)
	}
	return slotEdit{slot: slot, filter: notSentBy, field: []string{"is_read"},
		op: setTo(bson.RawValue{Type: bson.TypeBoolean, Value: []byte{1}})}
}

// slotEdit is one path of a bucket update: op applied at
// "msgs.<slot>.<field...>" when the stored document passes filter (nil:
// always). matched, when set, records whether it passed.
type slotEdit struct {
	slot    int
	filter  func(doc bson.Raw, slotPath string) bool
	field   []string
	op      operator
	matched *bool
}

// errNoChange rolls back an update transaction that changes nothing, so a
// miss costs no commit (and no sync).
var errNoChange = errors.New("nothing to change")

// updateMsg runs the edits of docID in one transaction. With together,
// they are one updateOne: every filter must pass or nothing is written, and
// matched is false (as when no document has docID). Otherwise each edit is
// its own filtered update, as in a bulk write, and matched tells whether the
// document exists. Filters see the document as stored before the edits. A
// cancelled ctx stops it before the transaction: bbolt itself never looks
// at a context, so this is where Ctrl-C reaches a long batch.
func (b *msgWrites) updateMsg(ctx context.Context, docID string, together bool, edits []slotEdit) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	for _, e := range edits {
		if e.slot < 0 {
			return false, fmt.Errorf("%s: slot %d is negative", docID, e.slot)
		}
	}
	matched := false
	err := b.db.UpdateGrouped(func(tx *bolt.Tx) error {
		old := getMsg(tx, docID)
		if old == nil {
			return errNoChange
		}
		b.db.countRead(old)
		doc, ok, err := editedDoc(old, docID, together, edits)
		if err != nil || !ok {
			return cmp.Or(err, errNoChange)
		}
		matched = true
		if bytes.Equal(doc, old) {
			return errNoChange
		}
		return putMsg(tx, doc)
	})
	if errors.Is(err, errNoChange) {
		err = nil
	}
	return matched, err
}

// editedDoc is old, the stored bucket docID, with the edits whose filters
// pass applied (filters see old). With together, one filter that fails
// makes ok false and applies nothing.
func editedDoc(old bson.Raw, docID string, together bool, edits []slotEdit) (doc bson.Raw, ok bool, err error) {
	apply := make([]slotEdit, 0, len(edits))
	for _, e := range edits {
		pass := e.filter == nil || e.filter(old, strconv.Itoa(e.slot))
		if e.matched != nil {
			*e.matched = pass
		}
		if pass {
			apply = append(apply, e)
		} else if together {
			return nil, false, nil
		}
	}
	doc, err = updateSlots(old, apply)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", docID, err)
	}
	return doc, true, nil
}
