package mongostore

import (
	"context"
	"errors"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"

	"github.com/chatlens/chatlens/store"
)

func (b *Backend) coll(name string) *mongo.Collection { return b.db.Collection(name) }

// slotPath is "msgs.<slot>.<field>".
func slotPath(slot int, field string) string {
	return "msgs." + strconv.Itoa(slot) + "." + field
}

// FindBuckets: find({doc_id: {$in: ids}}).
func (b *Backend) FindBuckets(ctx context.Context, docIDs []string) ([]bson.Raw, error) {
	if len(docIDs) == 0 {
		return nil, nil
	}
	var out []bson.Raw
	err := b.find(ctx, store.CollMsg, bson.D{{Key: "doc_id", Value: bson.D{{Key: "$in", Value: docIDs}}}}, nil,
		func(raw bson.Raw) error {
			out = append(out, raw)
			return nil
		})
	return out, err
}

// BucketIDs: find({doc_id: {$gte: "<cid>:", $lt: "<cid>;"}}, {doc_id: 1, _id: 0}),
// covered by the doc_id index (';' is the byte after ':').
func (b *Backend) BucketIDs(ctx context.Context, cid string) ([]string, error) {
	filter := bson.D{{Key: "doc_id", Value: bson.D{{Key: "$gte", Value: cid + ":"}, {Key: "$lt", Value: cid + ";"}}}}
	opts := options.Find().SetProjection(bson.D{{Key: "doc_id", Value: 1}, {Key: "_id", Value: 0}}).
		SetSort(bson.D{{Key: "doc_id", Value: 1}})
	var ids []string
	err := b.find(ctx, store.CollMsg, filter, opts, func(raw bson.Raw) error {
		if id, ok := raw.Lookup("doc_id").StringValueOK(); ok {
			ids = append(ids, id)
		}
		return nil
	})
	return ids, err
}

// NextConversationID is one step of a loose index scan over doc_id:
// the first doc_id past every bucket of after, projected to doc_id.
func (b *Backend) NextConversationID(ctx context.Context, after string) (string, bool, error) {
	filter := bson.D{}
	if after != "" {
		filter = bson.D{{Key: "doc_id", Value: bson.D{{Key: "$gt", Value: after + ";"}}}}
	}
	opts := options.FindOne().SetSort(bson.D{{Key: "doc_id", Value: 1}}).
		SetProjection(bson.D{{Key: "doc_id", Value: 1}, {Key: "_id", Value: 0}})
	var raw bson.Raw
	err := b.run(ctx, func(ctx context.Context) error {
		var err error
		raw, err = b.coll(store.CollMsg).FindOne(ctx, filter, opts).Raw()
		return err
	})
	if err == mongo.ErrNoDocuments {
		return "", false, nil
	}
	if err != nil {
		return "", false, b.wrapOp("find", store.CollMsg, err)
	}
	id, ok := raw.Lookup("doc_id").StringValueOK()
	if !ok {
		// A doc_id that is not a string sorts apart from the strings; stop there.
		return "", false, nil
	}
	cid, _, perr := store.ParseDocID(id)
	if perr != nil && cid == "" {
		cid = id // no "<cid>:" form at all: the whole id names it
	}
	return cid, true, nil
}

// SetSlotField: updateOne({doc_id}, {$set: {"msgs.<slot>.<field>": value}}).
func (b *Backend) SetSlotField(ctx context.Context, docID string, slot int, field string, value any) (bool, error) {
	return b.updateOne(ctx, store.CollMsg, bson.D{{Key: "doc_id", Value: docID}},
		bson.D{{Key: "$set", Value: bson.D{{Key: slotPath(slot, field), Value: value}}}})
}

// SetSlotFieldIfUnset: updateOne({doc_id, "msgs.<slot>.<field>": {$not:
// {$type: "object"}}}, {$set: ...}). Not {field: null}: on an array path a
// null test also matches slot documents that merely lack a field named
// "<slot>", which every slot does; a type test sees only the slot's value.
func (b *Backend) SetSlotFieldIfUnset(ctx context.Context, docID string, slot int, field string, value any) (bool, error) {
	filter := bson.D{{Key: "doc_id", Value: docID},
		{Key: slotPath(slot, field), Value: bson.D{{Key: "$not", Value: bson.D{{Key: "$type", Value: "object"}}}}}}
	return b.updateOne(ctx, store.CollMsg, filter,
		bson.D{{Key: "$set", Value: bson.D{{Key: slotPath(slot, field), Value: value}}}})
}

// InsertBucket: insertOne(doc); a duplicate doc_id is store.ErrDuplicateKey.
func (b *Backend) InsertBucket(ctx context.Context, doc *store.Doc) error {
	err := b.run(ctx, func(ctx context.Context) error {
		_, err := b.coll(store.CollMsg).InsertOne(ctx, doc)
		return err
	})
	if mongo.IsDuplicateKeyError(err) {
		return store.ErrDuplicateKey
	}
	return b.wrapWrite("insert", store.CollMsg, err)
}

// AddToDelList: updateOne({doc_id}, {$addToSet: {"msgs.<slot>.del_list": {$each: users}}}).
func (b *Backend) AddToDelList(ctx context.Context, docID string, slot int, users []string) (bool, error) {
	return b.updateOne(ctx, store.CollMsg, bson.D{{Key: "doc_id", Value: docID}},
		bson.D{{Key: "$addToSet", Value: bson.D{{Key: slotPath(slot, "del_list"),
			Value: bson.D{{Key: "$each", Value: users}}}}}})
}

// MarkSlotRead: updateOne({doc_id, "msgs.<slot>.msg.send_id": {$ne: reader}},
// {$set: {"msgs.<slot>.is_read": true}}); the reader's own messages stay unread.
func (b *Backend) MarkSlotRead(ctx context.Context, docID string, slot int, reader string) (bool, error) {
	filter := bson.D{{Key: "doc_id", Value: docID},
		{Key: slotPath(slot, "msg.send_id"), Value: bson.D{{Key: "$ne", Value: reader}}}}
	return b.updateOne(ctx, store.CollMsg, filter,
		bson.D{{Key: "$set", Value: bson.D{{Key: slotPath(slot, "is_read"), Value: true}}}})
}

// SetSlotsField: updateOne({doc_id}, {$set: {"msgs.<slot>.<field>": value, ...}}).
func (b *Backend) SetSlotsField(ctx context.Context, docID, field string, sets []store.SlotValue) (bool, error) {
	return b.updateOne(ctx, store.CollMsg, bson.D{{Key: "doc_id", Value: docID}},
		bson.D{{Key: "$set", Value: slotsSet(field, sets)}})
}

// SetSlotsFieldIfUnset: SetSlotsField with SetSlotFieldIfUnset's condition
// for every slot in the filter, so one slot set makes nothing match.
func (b *Backend) SetSlotsFieldIfUnset(ctx context.Context, docID, field string, sets []store.SlotValue) (bool, error) {
	filter := bson.D{{Key: "doc_id", Value: docID}}
	for _, sv := range sets {
		filter = append(filter, bson.E{Key: slotPath(sv.Slot, field),
			Value: bson.D{{Key: "$not", Value: bson.D{{Key: "$type", Value: "object"}}}}})
	}
	return b.updateOne(ctx, store.CollMsg, filter, bson.D{{Key: "$set", Value: slotsSet(field, sets)}})
}

func slotsSet(field string, sets []store.SlotValue) bson.D {
	set := make(bson.D, len(sets))
	for i, sv := range sets {
		set[i] = bson.E{Key: slotPath(sv.Slot, field), Value: sv.Value}
	}
	return set
}

// AddToDelLists: updateOne({doc_id}, {$addToSet: {"msgs.<slot>.del_list": {$each: users}, ...}}).
func (b *Backend) AddToDelLists(ctx context.Context, docID string, slots []int, users []string) (bool, error) {
	add := make(bson.D, len(slots))
	for i, slot := range slots {
		add[i] = bson.E{Key: slotPath(slot, "del_list"), Value: bson.D{{Key: "$each", Value: users}}}
	}
	return b.updateOne(ctx, store.CollMsg, bson.D{{Key: "doc_id", Value: docID}},
		bson.D{{Key: "$addToSet", Value: add}})
}

// MarkSlotsRead: one ordered BulkWrite of MarkSlotRead's filtered updates,
// one per slot, as OpenIM's MarkSingleChatMsgsAsRead sends. Ordered, so a
// write error stops it there and the updates before it are the ones that ran.
func (b *Backend) MarkSlotsRead(ctx context.Context, docID string, slots []int, reader string) (int, error) {
	if len(slots) == 0 {
		return 0, nil
	}
	models := make([]mongo.WriteModel, len(slots))
	for i, slot := range slots {
		models[i] = mongo.NewUpdateOneModel().
			SetFilter(bson.D{{Key: "doc_id", Value: docID},
				{Key: slotPath(slot, "msg.send_id"), Value: bson.D{{Key: "$ne", Value: reader}}}}).
			SetUpdate(bson.D{{Key: "$set", Value: bson.D{{Key: slotPath(slot, "is_read"), Value: true}}}})
	}
	ran := 0
	err := b.run(ctx, func(ctx context.Context) error {
		_, err := b.coll(store.CollMsg).BulkWrite(ctx, models, options.BulkWrite().SetOrdered(true))
		ran = len(slots)
		var bwe mongo.BulkWriteException
		if errors.As(err, &bwe) && len(bwe.WriteErrors) > 0 {
			ran = bwe.WriteErrors[0].Index
			for _, we := range bwe.WriteErrors {
				ran = min(ran, we.Index)
			}
		} else if err != nil {
			ran = 0
		}
		return err
	})
	return ran, b.wrapWrite("update", store.CollMsg, err)
}

// updateOne runs one update and reports whether a document matched.
func (b *Backend) updateOne(ctx context.Context, coll string, filter, update bson.D) (bool, error) {
	var matched bool
	err := b.run(ctx, func(ctx context.Context) error {
		res, err := b.coll(coll).UpdateOne(ctx, filter, update)
		if err == nil {
			matched = res.MatchedCount > 0
		}
		return err
	})
	return matched, b.wrapWrite("update", coll, err)
}

// wrapWrite is wrapOp for a write: when the request may have reached the
// server but no reply came back (the connection broke, the time ran out,
// the caller gave up), the error also says store.ErrOutcomeUnknown, so
// the seqs are reported as maybe written, never as not done. A server
// that could not be selected was sent nothing.
func (b *Backend) wrapWrite(op, coll string, err error) error {
	werr := b.wrapOp(op, coll, err)
	var sse topology.ServerSelectionError
	if err == nil || errors.As(err, &sse) {
		return werr
	}
	if mongo.IsNetworkError(err) || mongo.IsTimeout(err) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return &lostReplyError{werr}
	}
	return werr
}

// lostReplyError is a write error whose outcome is unknown.
type lostReplyError struct{ err error }

func (e *lostReplyError) Error() string   { return e.err.Error() }
func (e *lostReplyError) Unwrap() []error { return []error{e.err, store.ErrOutcomeUnknown} }

// find runs one find, bounded by the operation timeout, and hands each
// document (a copy) to fn.
func (b *Backend) find(ctx context.Context, coll string, filter bson.D, opts *options.FindOptionsBuilder, fn func(bson.Raw) error) error {
	ctx, cancel := context.WithTimeout(ctx, b.opTime)
	defer cancel()
	return b.scan(ctx, coll, filter, opts, fn)
}

// scan is find bounded by the caller's context only: a whole collection
// may take longer than one round trip.
func (b *Backend) scan(ctx context.Context, coll string, filter bson.D, opts *options.FindOptionsBuilder, fn func(bson.Raw) error) error {
	return b.wrapOp("find", coll, b.clock.run(ctx, func(ctx context.Context) error {
		var lo []options.Lister[options.FindOptions]
		if opts != nil {
			lo = append(lo, opts)
		}
		cur, err := b.coll(coll).Find(ctx, filter, lo...)
		if err != nil {
			return err
		}
		defer cur.Close(context.WithoutCancel(ctx))
		for cur.Next(ctx) {
			if err := fn(append(bson.Raw(nil), cur.Current...)); err != nil {
				return err
			}
		}
		return cur.Err()
	}))
}
