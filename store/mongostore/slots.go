package mongostore

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// FindSlots: find({doc_id}, {msgs: {$slice: [first, n]}}) where the server
// honours the projection, else find({doc_id}) and the whole bucket. The
// first call finds out which: a server that refuses the projection, or
// answers with more than n slots, reads whole buckets from then on.
func (b *msgReads) FindSlots(ctx context.Context, docID string, first, n int) (bson.Raw, bool, error) {
	mode := store.SlotReadMode(b.slotReads.Load())
	if mode == store.SlotsWholeBucket {
		raw, err := b.findBucket(ctx, findBucket(docID))
		return raw, false, err
	}
	raw, err := b.findBucket(ctx, findSlots(docID, first, n))
	var se mongo.ServerError
	if err != nil && mode == store.SlotsUnknown && errors.As(err, &se) && !mongo.IsNetworkError(err) && !mongo.IsTimeout(err) {
		b.slotReads.Store(int32(store.SlotsWholeBucket))
		raw, err = b.findBucket(ctx, findBucket(docID))
		return raw, false, err
	}
	if err != nil || raw == nil || mode == store.SlotsProjected {
		return raw, true, err
	}
	// Not known yet: judge by how many slots came back.
	got := -1
	if arr, ok := raw.Lookup("msgs").ArrayOK(); ok {
		if vals, verr := arr.Values(); verr == nil {
			got = len(vals)
		}
	}
	switch {
	case got > n:
		b.slotReads.Store(int32(store.SlotsWholeBucket))
		return raw, false, nil
	case got == n && n < bucket.BucketSize:
		b.slotReads.Store(int32(store.SlotsProjected))
		return raw, true, nil
	case got < 0 || first == 0:
		return raw, true, nil // cut or not, the same slots: no array, or one starting at slot 0
	}
	// A short or unreadable msgs does not say whether the server cut it:
	// read this one bucket whole.
	raw, err = b.findBucket(ctx, findBucket(docID))
	return raw, false, err
}

// SlotReads says whether FindSlots has found the $slice projection honoured.
func (b *msgReads) SlotReads() store.SlotReadMode { return store.SlotReadMode(b.slotReads.Load()) }

// findBucket runs q, a find of one bucket; nil when there is none.
func (b *msgReads) findBucket(ctx context.Context, q findQuery) (bson.Raw, error) {
	var out bson.Raw
	err := b.find(ctx, q, func(raw bson.Raw) error {
		if out == nil {
			out = raw
		}
		return nil
	})
	return out, err
}
