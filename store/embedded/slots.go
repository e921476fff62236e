package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"strconv"

	"github.com/chatlens/chatlens/store/bucket"
	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// FindSlots reads bucket docID with msgs cut to the n slots from first, as
// MongoDB's {msgs: {$slice: [first, n]}} projection returns it: only those
// slots are copied out of the file, found through the slot index where it
// vouches for them (slotindex.go). A bucket whose msgs is not a readable
// array comes back whole (sliced false), so the reader sees the same
// damage a whole-bucket read shows.
func (b *msgReads) FindSlots(_ context.Context, docID string, first, n int) (bson.Raw, bool, error) {
	var out bucket.SlotRead
	err := b.db.View(func(tx *bolt.Tx) error {
		out = b.readSlots(tx, bucket.SlotRange{DocID: docID, First: first, N: n})
		return nil
	})
	return out.Raw, out.Sliced, err
}

// FindSlotRanges is FindSlots of every range in one read transaction; a
// range of the whole bucket is the stored bytes, not cut.
func (b *msgReads) FindSlotRanges(_ context.Context, ranges []bucket.SlotRange) ([]bucket.SlotRead, error) {
	out := make([]bucket.SlotRead, len(ranges))
	err := b.db.View(func(tx *bolt.Tx) error {
		for i, r := range ranges {
			out[i] = b.readSlots(tx, r)
		}
		return nil
	})
	return out, err
}

// readSlots is r's slots of its stored bucket, as FindSlots answers; the
// document and its index entry count towards the page shedder (the whole
// document: its head, the slots and its tail are read).
func (b *msgReads) readSlots(tx *bolt.Tx, r bucket.SlotRange) bucket.SlotRead {
	doc, entry := storedMsg(tx, r.DocID)
	b.db.countRead(doc, entry)
	out := cutSlots(doc, entry, r)
	b.db.read(len(out.Raw))
	return out
}

// storedMsg is the stored document docID and its slot index entry (nil:
// none); the bytes belong to tx.
func storedMsg(tx *bolt.Tx, docID string) (doc, entry []byte) {
	if key, ok := mainMsgKey(docID); ok {
		return getIn(tx, bucketMsg, key), getSlotIndex(tx, key)
	}
	return getIn(tx, bucketMsgOdd, oddMsgKey(docID)), nil
}

// cutSlots is r's slots of doc, found through entry, as readSlots answers.
func cutSlots(doc, entry []byte, r bucket.SlotRange) bucket.SlotRead {
	switch {
	case doc == nil:
		return bucket.SlotRead{}
	case r.Whole():
		return bucket.SlotRead{Raw: bytes.Clone(doc)}
	}
	if out := sliceMsgs(doc, entry, r.First, r.N); out != nil {
		return bucket.SlotRead{Raw: out, Sliced: true}
	}
	return bucket.SlotRead{Raw: bytes.Clone(doc)}
}

// SlotReads: the embedded store always cuts the array itself.
func (b *msgReads) SlotReads() bucket.SlotReadMode { return bucket.SlotsProjected }

// msgsLocation is where a document's first msgs array lies: msgs nil when
// it has none; before and after are the elements around it, arrStart and
// arrEnd the offsets in the document of the array's first element and of
// its closing zero.
type msgsLocation struct {
	msgs             bsoncore.Element
	before, after    []byte
	arrStart, arrEnd int
}

// locateMsgs finds doc's first msgs holding an array (LookupErr reads that
// one) by its top-level elements alone; ok false when doc or that array is
// not exactly framed.
func locateMsgs(doc []byte) (loc msgsLocation, ok bool) {
	body, ok := framed(doc)
	if !ok {
		return loc, false
	}
	for rest := body; len(rest) > 0; {
		e, next, ok := bsoncore.ReadElement(rest)
		if !ok {
			return loc, false
		}
		if loc.msgs == nil && e[0] == byte(bsoncore.TypeArray) && e.Key() == "msgs" {
			loc.msgs, loc.before, loc.after = e, body[:len(body)-len(rest)], next
			// type byte, "msgs\x00", the array's length
			loc.arrStart = 4 + len(loc.before) + 1 + 5 + 4
		}
		rest = next
	}
	if loc.msgs == nil {
		return loc, true
	}
	arr, ok := framed(loc.msgs.Value().Data)
	loc.arrEnd = loc.arrStart + len(arr)
	return loc, ok
}

// sliceMsgs is doc with its msgs array cut to n elements from first (fewer
// where the array is shorter), every other field kept; nil when doc or its
// msgs is not exactly framed or a slot asked for is not valid BSON. The
// slots asked for are found through the slot index entry (nil: none) when
// it vouches for them; otherwise the slots before them are skipped by their
// lengths. The ones after are never read: a slot damaged byte by byte
// (which no write through MongoDB or chatlens leaves) spoils a read of the
// whole bucket but not a read of a slot after it (nor, through the index,
// before it). doc may be bbolt's own bytes: the result is a copy, built in
// one allocation of its final size.
func sliceMsgs(doc, entry []byte, first, n int) bson.Raw {
	loc, ok := locateMsgs(doc)
	if !ok {
		return nil
	}
	if loc.msgs == nil {
		return bytes.Clone(doc)
	}
	keep, ok := indexedSlots(doc, entry, loc, first, n)
	if !ok {
		if keep, ok = walkSlots(doc[loc.arrStart:loc.arrEnd], first, n); !ok {
			return nil
		}
	}
	size := 0
	for i, e := range keep {
		if e.Value().Validate() != nil {
			return nil
		}
		size += len(e) - len(e.Key()) + len(strconv.Itoa(i))
	}
	// The document without msgs, plus "\x04msgs\x00", the array's length,
	// its elements and its closing zero.
	out := make([]byte, 4, len(doc)-len(loc.msgs)+6+4+size+1)
	out = append(out, loc.before...)
	out = append(out, byte(bsoncore.TypeArray))
	out = append(out, "msgs"...)
	out = append(out, 0)
	at := len(out)
	out = append(out, 0, 0, 0, 0)
	for i, e := range keep {
		out = append(out, e[0])
		out = strconv.AppendInt(out, int64(i), 10)
		out = append(out, e[1+len(e.Key()):]...) // the key's closing zero and the value
	}
	out = append(out, 0)
	binary.LittleEndian.PutUint32(out[at:], uint32(len(out)-at))
	out = append(out, loc.after...)
	return endDoc(out)
}

// walkSlots are the elements first..first+n-1 of the array elements arr
// (fewer where it is shorter), reached by skipping the ones before.
func walkSlots(arr []byte, first, n int) ([]bsoncore.Element, bool) {
	var keep []bsoncore.Element
	for i := 0; len(arr) > 0 && i < first+n; i++ {
		e, next, ok := bsoncore.ReadElement(arr)
		if !ok {
			return nil, false
		}
		if i >= first {
			keep = append(keep, e)
		}
		arr = next
	}
	return keep, true
}

// framed is the elements of an exactly framed document or array (declared
// length equal to its size, closing zero); ok false otherwise.
func framed(doc []byte) ([]byte, bool) {
	length, _, ok := bsoncore.ReadLength(doc)
	if !ok || int64(length) != int64(len(doc)) || length < 5 || doc[len(doc)-1] != 0 {
		return nil, false
	}
	return doc[4 : len(doc)-1], true
}
