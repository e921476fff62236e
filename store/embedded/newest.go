package embedded

import (
	"bytes"
	"context"

	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/chatlens/chatlens/store/bucket"
)

// FindNewestSlots finds each bucket's last slot that is not untouched from
// its end, through the slot index where it vouches for the slots (a
// comparison of a few dozen bytes each), and copies out that slot alone.
func (b *msgReads) FindNewestSlots(_ context.Context, docIDs []string) ([]bucket.NewestRead, error) {
	out := make([]bucket.NewestRead, len(docIDs))
	err := b.db.View(func(tx *bolt.Tx) error {
		for i, id := range docIDs {
			doc, entry := storedMsg(tx, id)
			b.db.countSparse(doc, entry)
			out[i] = newestOf(doc, entry)
			b.db.read(len(out[i].Raw))
		}
		return nil
	})
	return out, err
}

// newestOf is FindNewestSlots' answer for doc (nil: not stored) with its
// slot index entry.
func newestOf(doc, entry []byte) bucket.NewestRead {
	if doc == nil {
		return bucket.NewestRead{}
	}
	loc, ok := locateMsgs(doc)
	if !ok || loc.msgs == nil {
		return bucket.NewestRead{Raw: bytes.Clone(doc)}
	}
	at, ok := lastTouched(doc, entry, loc)
	if !ok {
		return bucket.NewestRead{Raw: bytes.Clone(doc)}
	}
	first, n := max(at, 0), 1
	if at < 0 {
		n = 0
	}
	raw := sliceMsgs(doc, entry, first, n)
	if raw == nil {
		return bucket.NewestRead{Raw: bytes.Clone(doc)}
	}
	return bucket.NewestRead{Raw: raw, At: at, Cut: true}
}

// lastTouched is the position of the last element of doc's msgs that is
// not an untouched slot (-1: none); ok false unless msgs is an array of
// exactly bucket.BucketSize readable elements.
func lastTouched(doc, entry []byte, loc msgsLocation) (int, bool) {
	if at, ok := lastTouchedIndexed(doc, entry, loc); ok {
		return at, true
	}
	all, ok := walkSlots(doc[loc.arrStart:loc.arrEnd], 0, bucket.BucketSize+1)
	if !ok || len(all) != bucket.BucketSize {
		return 0, false
	}
	return lastNotUntouched(all), true
}

// lastTouchedIndexed is lastTouched through the slot index, looking only
// at the elements from the end back to the one it finds, so the pages of
// the rest of the bucket are never touched; ok false when the index does
// not vouch for them.
func lastTouchedIndexed(doc, entry []byte, loc msgsLocation) (int, bool) {
	const last = bucket.BucketSize - 1
	// Asking one past the end checks the entry and that the array ends
	// where its last indexed element does.
	if tail, ok := indexedSlots(doc, entry, loc, last, 2); !ok || len(tail) != 1 ||
		(len(entry)-slotIndexHeader)/slotIndexEntry != bucket.BucketSize {
		return 0, false
	}
	for i := last; i >= 0; i-- {
		e, ok := indexedSlot(doc, entry, loc, i)
		if !ok {
			return 0, false
		}
		if v := e.Value(); v.Type != bsoncore.TypeEmbeddedDocument || !bucket.IsUntouched(v.Data) {
			return i, true
		}
	}
	return -1, true
}

func lastNotUntouched(elems []bsoncore.Element) int {
	for i := len(elems) - 1; i >= 0; i-- {
		if v := elems[i].Value(); v.Type != bsoncore.TypeEmbeddedDocument || !bucket.IsUntouched(v.Data) {
			return i
		}
	}
	return -1
}
