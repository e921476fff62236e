package mongostore

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// FindNewestSlots: one aggregation (newestSlots) returning each bucket's
// last touched slot and its position, where the server has the operators;
// else, as on FerretDB v1 (no $slice), find({doc_id: {$in}}) and whole
// buckets. The first call finds out which, as FindSlotRanges does.
func (b *msgReads) FindNewestSlots(ctx context.Context, docIDs []string) ([]store.NewestRead, error) {
	mode := store.SlotReadMode(b.newestReads.Load())
	if mode == store.SlotsWholeBucket || b.SlotReads() == store.SlotsWholeBucket {
		return b.wholeNewest(ctx, docIDs)
	}
	raws, err := b.aggregate(ctx, newestSlots(docIDs))
	var se mongo.ServerError
	if err != nil && mode == store.SlotsUnknown && errors.As(err, &se) && !mongo.IsNetworkError(err) && !mongo.IsTimeout(err) {
		b.newestReads.Store(int32(store.SlotsWholeBucket))
		return b.wholeNewest(ctx, docIDs)
	}
	if err != nil {
		return nil, err
	}
	byID := docsByID(raws)
	out := make([]store.NewestRead, len(docIDs))
	var unsure []int // answers that are not what the pipeline makes: read whole
	for i, id := range docIDs {
		raw := byID[id]
		if raw == nil {
			continue
		}
		at, ok := cutAt(raw)
		switch {
		case ok:
			out[i] = store.NewestRead{Raw: raw, At: at, Cut: true}
		case raw.Lookup(newestAtField).IsZero():
			unsure = append(unsure, i)
		default:
			out[i] = store.NewestRead{Raw: raw} // msgs as stored: not an array of 100
		}
	}
	if len(unsure) == len(byID) && len(unsure) > 0 && mode == store.SlotsUnknown {
		// Not one answer has the pipeline's shape: the server ran it wrong.
		b.newestReads.Store(int32(store.SlotsWholeBucket))
	} else if len(byID) > 0 {
		b.newestReads.Store(int32(store.SlotsProjected))
	}
	return b.fillWhole(ctx, out, docIDs, unsure)
}

// newestArrayField is msgs where it is an array, [] where it is not.
const newestArrayField = "chatlens_newest_msgs"

// newestAtField carries the position of the last touched slot in
// newestSlots' answers: null when msgs is not an array of 100.
const newestAtField = "chatlens_newest_at"

// cutAt is the position an answer of newestSlots gives, ok when the answer
// has the pipeline's shape: a position from -1 to 99 and msgs holding the
// slot there alone (none for -1).
func cutAt(raw bson.Raw) (int, bool) {
	at, ok := raw.Lookup(newestAtField).AsInt64OK()
	if !ok || at < -1 || at >= bucket.BucketSize {
		return 0, false
	}
	arr, ok := raw.Lookup("msgs").ArrayOK()
	if !ok {
		return 0, false
	}
	vals, err := arr.Values()
	if err != nil || at >= 0 && len(vals) != 1 || at < 0 && len(vals) != 0 {
		return 0, false
	}
	return int(at), true
}

// wholeNewest reads the buckets of docIDs whole, in one find.
func (b *msgReads) wholeNewest(ctx context.Context, docIDs []string) ([]store.NewestRead, error) {
	all := make([]int, len(docIDs))
	for i := range all {
		all[i] = i
	}
	return b.fillWhole(ctx, make([]store.NewestRead, len(docIDs)), docIDs, all)
}

// fillWhole reads the buckets of docIDs at positions which whole, in one
// find, into out.
func (b *msgReads) fillWhole(ctx context.Context, out []store.NewestRead, docIDs []string, which []int) ([]store.NewestRead, error) {
	if len(which) == 0 {
		return out, nil
	}
	ids := make([]string, len(which))
	for j, i := range which {
		ids[j] = docIDs[i]
	}
	raws, err := b.FindBuckets(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := docsByID(raws)
	for _, i := range which {
		out[i] = store.NewestRead{Raw: byID[docIDs[i]]}
	}
	return out, nil
}

// newestSlots finds each bucket's last slot that is not untouched: the
// highest position whose slot is not equal ($eq compares documents field
// by field, in order) to bucket.UntouchedSlot, and that slot alone. A msgs
// that is not an array of 100 is left whole, its position null. The array
// operators ($size, $arrayElemAt, $slice) fail the whole command on a
// non-array, on MongoDB and on DocumentDB alike, and DocumentDB evaluates
// both branches of a $cond: so they are only ever given newestArrayField,
// msgs where it is an array and [] where it is not.
func newestSlots(docIDs []string) aggregateQuery {
	arr := "$" + newestArrayField
	untouched := bson.D{{Key: "$literal", Value: bucket.UntouchedSlot()}}
	last := bson.D{{Key: "$reduce", Value: bson.D{
		{Key: "input", Value: bson.D{{Key: "$range", Value: bson.A{0, bucket.BucketSize}}}},
		{Key: "initialValue", Value: -1},
		{Key: "in", Value: bson.D{{Key: "$cond", Value: bson.A{
			bson.D{{Key: "$eq", Value: bson.A{bson.D{{Key: "$arrayElemAt", Value: bson.A{arr, "$$this"}}}, untouched}}},
			"$$value", "$$this"}}}},
	}}}
	at := "$" + newestAtField
	cut := bson.D{{Key: "$cond", Value: bson.A{
		bson.D{{Key: "$eq", Value: bson.A{at, nil}}},
		"$msgs",
		bson.D{{Key: "$cond", Value: bson.A{
			bson.D{{Key: "$gte", Value: bson.A{at, 0}}},
			bson.D{{Key: "$slice", Value: bson.A{arr, bson.D{{Key: "$max", Value: bson.A{bson.D{{Key: "$ifNull", Value: bson.A{at, 0}}}, 0}}}, 1}}},
			bson.A{}}}},
	}}}
	return aggregateQuery{coll: bucket.CollMsg, pipeline: bson.A{
		bson.D{{Key: "$match", Value: bson.D{{Key: "doc_id", Value: in(docIDs)}}}},
		bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: 0}, {Key: "doc_id", Value: 1}, {Key: "msgs", Value: 1},
			{Key: newestArrayField, Value: bson.D{{Key: "$cond", Value: bson.A{bson.D{{Key: "$isArray", Value: "$msgs"}}, "$msgs", bson.A{}}}}}}}},
		bson.D{{Key: "$project", Value: bson.D{{Key: "doc_id", Value: 1}, {Key: "msgs", Value: 1}, {Key: newestArrayField, Value: 1},
			{Key: newestAtField, Value: bson.D{{Key: "$cond", Value: bson.A{
				bson.D{{Key: "$eq", Value: bson.A{bson.D{{Key: "$size", Value: arr}}, bucket.BucketSize}}}, last, nil}}}}}}},
		bson.D{{Key: "$project", Value: bson.D{{Key: "doc_id", Value: 1}, {Key: newestAtField, Value: 1}, {Key: "msgs", Value: cut}}}},
	}}
}
