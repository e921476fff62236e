package mongostore

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/chatlens/chatlens/store"
)

// FindSlotRanges: one aggregation cutting each partly asked bucket with
// $slice (sliceRanges) where the server has it, else find({doc_id: {$in}})
// and whole buckets. The first call finds out which: a server that refuses
// the pipeline (FerretDB v1 has no $slice) reads whole buckets from then
// on, and so does one whose FindSlots found no $slice projection.
func (b *msgReads) FindSlotRanges(ctx context.Context, ranges []store.SlotRange) ([]store.SlotRead, error) {
	mode := store.SlotReadMode(b.rangeReads.Load())
	partly := false
	for _, r := range ranges {
		partly = partly || !r.Whole()
	}
	if !partly || mode == store.SlotsWholeBucket || b.SlotReads() == store.SlotsWholeBucket {
		return b.wholeRanges(ctx, ranges)
	}
	raws, err := b.aggregate(ctx, sliceRanges(ranges))
	var se mongo.ServerError
	if err != nil && mode == store.SlotsUnknown && errors.As(err, &se) && !mongo.IsNetworkError(err) && !mongo.IsTimeout(err) {
		b.rangeReads.Store(int32(store.SlotsWholeBucket))
		return b.wholeRanges(ctx, ranges)
	}
	if err != nil {
		return nil, err
	}
	if len(raws) > 0 {
		// A pipeline that matched nothing ran no operator: it proves
		// nothing (FerretDB v1 refuses $switch only on a document).
		b.rangeReads.Store(int32(store.SlotsProjected))
	}
	byID := docsByID(raws)
	out := make([]store.SlotRead, len(ranges))
	for i, r := range ranges {
		raw := byID[r.DocID]
		out[i] = store.SlotRead{Raw: raw, Sliced: raw != nil && !r.Whole() && slotsAtMost(raw, r.N)}
	}
	return out, nil
}

// wholeRanges reads the buckets of ranges whole, in one find.
func (b *msgReads) wholeRanges(ctx context.Context, ranges []store.SlotRange) ([]store.SlotRead, error) {
	ids := make([]string, len(ranges))
	for i, r := range ranges {
		ids[i] = r.DocID
	}
	raws, err := b.FindBuckets(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := docsByID(raws)
	out := make([]store.SlotRead, len(ranges))
	for i, r := range ranges {
		out[i] = store.SlotRead{Raw: byID[r.DocID]}
	}
	return out, nil
}

// slotsAtMost says raw's msgs is an array of at most n slots, or no array:
// what a cut leaves. More means the server did not cut it; then raw is
// read as the whole bucket it is.
func slotsAtMost(raw bson.Raw, n int) bool {
	arr, ok := raw.Lookup("msgs").ArrayOK()
	if !ok {
		return true
	}
	vals, err := arr.Values()
	return err != nil || len(vals) <= n
}

func docsByID(raws []bson.Raw) map[string]bson.Raw {
	out := make(map[string]bson.Raw, len(raws))
	for _, raw := range raws {
		if id, ok := raw.Lookup("doc_id").StringValueOK(); ok {
			out[id] = raw
		}
	}
	return out
}

// aggregate runs q within one round trip's time.
func (b *msgReads) aggregate(ctx context.Context, q aggregateQuery) ([]bson.Raw, error) {
	ctx, cancel := context.WithTimeout(ctx, b.opTime)
	defer cancel()
	var out []bson.Raw
	err := b.wrapOp("aggregate", q.coll, b.clock.run(ctx, func(ctx context.Context) error {
		cur, err := b.coll(q.coll).Aggregate(ctx, q.pipeline)
		if err != nil {
			return err
		}
		defer cur.Close(context.WithoutCancel(ctx))
		for cur.Next(ctx) {
			out = append(out, append(bson.Raw(nil), cur.Current...))
		}
		return cur.Err()
	}))
	return out, err
}
