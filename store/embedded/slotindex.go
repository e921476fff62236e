package embedded

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"strconv"

	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// The slot index: for each well-formed msg document, keyed as the document
// is, where each element of its msgs array starts. A read of one slot jumps
// there instead of walking the ~80 KB array from slot 0, which on a cold
// file faults in every page up to the slot.
//
// It is written in the same transaction as every write of a msg document,
// but it is never trusted: a file written by an older chatlens, or by
// anything else, may hold a document the index no longer describes. Each
// slot read through it checks that the document has the length indexed,
// that the element at the offset lies inside msgs, has the slot's position
// as key and the CRC-32C its bytes had when indexed; anything else falls
// back to the walk. Files without the index (older ones) are read by the
// walk and indexed bucket by bucket as they are written.
//
// Entry: a version byte, the document's length (uint32), then per element
// its offset in the document and the CRC-32C of its bytes (uint32 each,
// little-endian): 805 bytes for a bucket of 100 slots.

const (
	slotIndexVersion = 1
	slotIndexHeader  = 5
	slotIndexEntry   = 8
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// putSlotIndex records the slot index of doc, just stored under the
// well-formed msg key key, or removes the entry when doc has no msgs array
// in the usual shape, so no entry outlives the document it described.
func putSlotIndex(tx *bolt.Tx, key, doc []byte) error {
	entry := slotIndexOf(doc)
	if entry == nil {
		if bk := tx.Bucket(bucketMsgSlots); bk != nil {
			return bk.Delete(key)
		}
		return nil
	}
	bk, err := tx.CreateBucketIfNotExists(bucketMsgSlots)
	if err != nil {
		return err
	}
	return bk.Put(key, entry)
}

// getSlotIndex is the stored entry of key; nil when there is none or the
// file has no index (a read never creates it). The bytes belong to tx.
func getSlotIndex(tx *bolt.Tx, key []byte) []byte {
	return getIn(tx, bucketMsgSlots, key)
}

// slotIndexOf is the index entry of doc: nil unless doc is exactly framed,
// its first msgs is an exactly framed array, and that array's elements are
// readable and keyed 0, 1, 2, ... in order.
func slotIndexOf(doc []byte) []byte {
	loc, ok := locateMsgs(doc)
	if !ok || loc.msgs == nil {
		return nil
	}
	out := make([]byte, slotIndexHeader, slotIndexHeader+slotIndexEntry*128)
	out[0] = slotIndexVersion
	binary.LittleEndian.PutUint32(out[1:], uint32(len(doc)))
	var key []byte
	for at, i := loc.arrStart, 0; at < loc.arrEnd; i++ {
		e, _, ok := bsoncore.ReadElement(doc[at:loc.arrEnd])
		key = strconv.AppendInt(key[:0], int64(i), 10)
		if !ok || !bytes.Equal(e.KeyBytes(), key) {
			return nil
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(at))
		out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(e, castagnoli))
		at += len(e)
	}
	return out
}

// indexedSlots are the elements first..first+n-1 of doc's msgs (fewer where
// the array is shorter), found through entry; ok false when entry does not
// vouch for every one of them (see the checks above), and the caller walks.
func indexedSlots(doc, entry []byte, loc msgsLocation, first, n int) (keep []bsoncore.Element, ok bool) {
	if first < 0 || len(entry) < slotIndexHeader || entry[0] != slotIndexVersion ||
		(len(entry)-slotIndexHeader)%slotIndexEntry != 0 ||
		binary.LittleEndian.Uint32(entry[1:]) != uint32(len(doc)) {
		return nil, false
	}
	count := (len(entry) - slotIndexHeader) / slotIndexEntry
	last := min(first+n, count) // one past the last slot read
	if first+n > count {
		// The array must end where the index says it does: its last
		// indexed element (none: the array is empty) ends at its close.
		if count == 0 {
			return nil, loc.arrStart == loc.arrEnd
		}
		e, ok := indexedSlot(doc, entry, loc, count-1)
		if !ok || slotOffset(entry, count-1)+len(e) != loc.arrEnd {
			return nil, false
		}
	}
	for i := first; i < last; i++ {
		e, ok := indexedSlot(doc, entry, loc, i)
		if !ok {
			return nil, false
		}
		keep = append(keep, e)
	}
	return keep, true
}

// slotOffset is the offset entry records for element i.
func slotOffset(entry []byte, i int) int {
	return int(binary.LittleEndian.Uint32(entry[slotIndexHeader+i*slotIndexEntry:]))
}

// indexedSlot is element i of msgs at the offset entry records, when it
// lies inside the array, is keyed i and has the CRC recorded.
func indexedSlot(doc, entry []byte, loc msgsLocation, i int) (bsoncore.Element, bool) {
	at := slotOffset(entry, i)
	if at < loc.arrStart || at >= loc.arrEnd {
		return nil, false
	}
	e, _, ok := bsoncore.ReadElement(doc[at:loc.arrEnd])
	if !ok || string(e.KeyBytes()) != strconv.Itoa(i) {
		return nil, false
	}
	sum := binary.LittleEndian.Uint32(entry[slotIndexHeader+i*slotIndexEntry+4:])
	return e, crc32.Checksum(e, castagnoli) == sum
}
