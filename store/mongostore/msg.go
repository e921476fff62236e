package mongostore

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

func (b *conn) coll(name string) *mongo.Collection { return b.db.Collection(name) }

// FindBuckets: find({doc_id: {$in: ids}}).
func (b *msgReads) FindBuckets(ctx context.Context, docIDs []string) ([]bson.Raw, error) {
	if len(docIDs) == 0 {
		return nil, nil
	}
	var out []bson.Raw
	err := b.find(ctx, findBuckets(docIDs),
		func(raw bson.Raw) error {
			out = append(out, raw)
			return nil
		})
	return out, err
}

// BucketIDs: find({doc_id: {$gte: "<cid>:", $lt: "<cid>;"}}, {doc_id: 1, _id: 0}),
// covered by the doc_id index (';' is the byte after ':').
func (b *msgReads) BucketIDs(ctx context.Context, cid string) ([]string, error) {
	var ids []string
	err := b.find(ctx, bucketIDs(cid), func(raw bson.Raw) error {
		if id, ok := raw.Lookup("doc_id").StringValueOK(); ok {
			ids = append(ids, id)
		}
		return nil
	})
	return ids, err
}

// NextConversationID is one step of a loose index scan over doc_id:
// the first doc_id past every bucket of after, projected to doc_id.
func (b *msgReads) NextConversationID(ctx context.Context, after string) (string, bool, error) {
	q := nextConversationID(after)
	var raw bson.Raw
	err := b.run(ctx, func(ctx context.Context) error {
		var err error
		raw, err = b.coll(q.coll).FindOne(ctx, q.filter, q.oneOptions()).Raw()
		return err
	})
	if err == mongo.ErrNoDocuments {
		return "", false, nil
	}
	if err != nil {
		return "", false, b.wrapOp("find", bucket.CollMsg, err)
	}
	id, ok := raw.Lookup("doc_id").StringValueOK()
	if !ok {
		// A doc_id that is not a string sorts apart from the strings; stop there.
		return "", false, nil
	}
	cid, _, perr := bucket.ParseDocID(id)
	if perr != nil && cid == "" {
		cid = id // no "<cid>:" form at all: the whole id names it
	}
	return cid, true, nil
}

// SetSlotField: updateOne({doc_id}, {$set: {"msgs.<slot>.<field>": value}}).
func (b *msgWrites) SetSlotField(ctx context.Context, docID string, slot int, field string, value any) (bool, error) {
	return b.updateOne(ctx, setSlots(docID, field, []store.SlotValue{{Slot: slot, Value: value}}))
}

// SetSlotFieldIfUnset: updateOne({doc_id, "msgs.<slot>.<field>": {$not:
// {$type: "object"}}}, {$set: ...}). Not {field: null}: on an array path a
// null test also matches slot documents that merely lack a field named
// "<slot>", which every slot does; a type test sees only the slot's value.
func (b *msgWrites) SetSlotFieldIfUnset(ctx context.Context, docID string, slot int, field string, value any) (bool, error) {
	return b.updateOne(ctx, setSlotsIfUnset(docID, field, []store.SlotValue{{Slot: slot, Value: value}}))
}

// InsertBucket: insertOne(doc); a duplicate doc_id is store.ErrDuplicateKey.
// So is a lost race (lostRace) once a read finds the bucket stored: the
// writer that won created it, and the caller updates it as after a
// duplicate key. Not found yet (the winner has not committed), the answer
// stays a write that wrote nothing, tried again.
func (b *msgWrites) InsertBucket(ctx context.Context, doc *bucket.Doc) error {
	err := b.run(ctx, func(ctx context.Context) error {
		_, err := b.coll(bucket.CollMsg).InsertOne(ctx, doc)
		return err
	})
	if mongo.IsDuplicateKeyError(err) || lostRace(err) && b.bucketStored(ctx, doc.DocID) {
		return store.ErrDuplicateKey
	}
	return b.wrapWrite("insert", bucket.CollMsg, err)
}

// Codes of a write that lost a race with another: WriteConflict, and
// PostgreSQL's deadlock_detected (SQLSTATE 40P01, six bits a character),
// the write error FerretDB v2 with DocumentDB gives some of several racing
// inserts of one new bucket (and, rarely, an update racing them) instead
// of a duplicate key.
const (
	codeWriteConflict = 112
	codeDeadlock      = 16908292
)

// lostRace tells a write error that says another writer's write of the
// same document got in the way.
func lostRace(err error) bool {
	var se mongo.ServerError
	return errors.As(err, &se) && (se.HasErrorCode(codeWriteConflict) || se.HasErrorCode(codeDeadlock) ||
		se.HasErrorMessage("deadlock detected"))
}

// bucketStored reads whether the bucket docID is stored, the shape
// FindBuckets sends; a failed read says no.
func (b *msgWrites) bucketStored(ctx context.Context, docID string) bool {
	found := false
	err := b.find(ctx, findBuckets([]string{docID}), func(bson.Raw) error {
		found = true
		return nil
	})
	return err == nil && found
}

// AddToDelList: updateOne({doc_id}, {$addToSet: {"msgs.<slot>.del_list": {$each: users}}}).
func (b *msgWrites) AddToDelList(ctx context.Context, docID string, slot int, users []string) (bool, error) {
	return b.updateOne(ctx, addToDelList(docID, slot, users))
}

// MarkSlotRead: updateOne({doc_id, "msgs.<slot>.msg.send_id": {$ne: reader}},
// {$set: {"msgs.<slot>.is_read": true}}); the reader's own messages stay unread.
func (b *msgWrites) MarkSlotRead(ctx context.Context, docID string, slot int, reader string) (bool, error) {
	return b.updateOne(ctx, markRead(docID, slot, reader))
}

// SetSlotsField: updateOne({doc_id}, {$set: {"msgs.<slot>.<field>": value, ...}}).
// Several slots' paths in one $set, unlike OpenIM's BatchInsertChat (one
// UpdateMsg per seq): no engine has been seen to break on a $set of
// several paths, and one statement per slot costs the in-process
// FerretDB v1 a second or more per bucket.
func (b *msgWrites) SetSlotsField(ctx context.Context, docID, field string, sets []store.SlotValue) (bool, error) {
	return b.updateOne(ctx, setSlots(docID, field, sets))
}

// SetSlotsFieldIfUnset: SetSlotsField with SetSlotFieldIfUnset's condition
// for every slot in the filter, so one slot set makes nothing match.
func (b *msgWrites) SetSlotsFieldIfUnset(ctx context.Context, docID, field string, sets []store.SlotValue) (bool, error) {
	return b.updateOne(ctx, setSlotsIfUnset(docID, field, sets))
}

// AddToDelLists: updateOne({doc_id}, {$addToSet: {"msgs.<slot>.del_list":
// {$each: users}}}) for each slot, in one ordered BulkWrite: one slot's
// path per update, as OpenIM's DeleteUserMsgsBySeqs
// (pkg/common/storage/controller/msg.go) calls PushUnique
// (pkg/common/storage/database/mgo/msg.go) once per seq, but one round
// trip for the bucket. Never one $addToSet naming several slots' paths:
// FerretDB v2 with DocumentDB answers that shape, when some of the slots
// hold a user already and some do not, with a slot holding two del_list
// fields (shared/engine-recorded/README.md). Ordered: a write error (a
// del_list that is not an array) stops it there, and ran counts the
// updates before it.
func (b *msgWrites) AddToDelLists(ctx context.Context, docID string, slots []int, users []string) (int, error) {
	qs := make([]updateQuery, len(slots))
	for i, slot := range slots {
		qs[i] = addToDelList(docID, slot, users)
	}
	_, ran, err := b.bulkUpdate(ctx, qs)
	return ran, err
}

// MarkSlotsRead: one ordered BulkWrite of MarkSlotRead's filtered updates,
// one per slot, as OpenIM's MarkSingleChatMsgsAsRead sends for one bucket,
// here for every bucket of runs at once (plain updateOne statements, each
// with its doc_id in the filter). Ordered, so a write error stops it there
// and the updates before it are the ones that ran.
func (b *msgWrites) MarkSlotsRead(ctx context.Context, runs []store.BucketSlots, reader string) (int, error) {
	var qs []updateQuery
	for _, r := range runs {
		for _, slot := range r.Slots {
			qs = append(qs, markRead(r.DocID, slot, reader))
		}
	}
	_, ran, err := b.bulkUpdate(ctx, qs)
	return ran, err
}

// bulkUpdate sends qs, updates of the msg collection, as one ordered
// BulkWrite: one round trip, one update command of len(qs) statements.
// matched is the server's count of statements that matched a document;
// ran counts the leading statements that ran before a write error stopped
// the rest (all of them without one).
func (b *msgWrites) bulkUpdate(ctx context.Context, qs []updateQuery) (matched int64, ran int, err error) {
	if len(qs) == 0 {
		return 0, 0, nil
	}
	models := make([]mongo.WriteModel, len(qs))
	for i, q := range qs {
		models[i] = mongo.NewUpdateOneModel().SetFilter(q.filter).SetUpdate(q.update)
	}
	err = b.run(ctx, func(ctx context.Context) error {
		res, err := b.coll(bucket.CollMsg).BulkWrite(ctx, models, options.BulkWrite().SetOrdered(true))
		ran = len(models)
		if res != nil {
			matched = res.MatchedCount
		}
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
	return matched, ran, b.wrapWrite("update", bucket.CollMsg, err)
}

// updateOne runs one update and reports whether a document matched.
func (b *conn) updateOne(ctx context.Context, q updateQuery) (bool, error) {
	var matched bool
	err := b.run(ctx, func(ctx context.Context) error {
		res, err := b.coll(q.coll).UpdateOne(ctx, q.filter, q.update)
		if err == nil {
			matched = res.MatchedCount > 0
		}
		return err
	})
	return matched, b.wrapWrite("update", q.coll, err)
}

// wrapWrite is wrapOp for a write: when the request may have reached the
// server but no reply came back (the connection broke, the time ran out,
// the caller gave up), the error also says store.ErrOutcomeUnknown, so
// the seqs are reported as maybe written, never as not done. A server
// that could not be selected was sent nothing.
func (b *conn) wrapWrite(op, coll string, err error) error {
	werr := b.wrapOp(op, coll, err)
	var sse topology.ServerSelectionError
	if err == nil || errors.As(err, &sse) {
		return werr
	}
	if mongo.IsNetworkError(err) || mongo.IsTimeout(err) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return &lostReplyError{werr}
	}
	if notWritten(err) {
		return &notWrittenError{werr}
	}
	return werr
}

// Server error codes that say the write was not applied and a retry may
// succeed: the not-primary family a failover returns
// (InterruptedAtShutdown, InterruptedDueToReplStateChange,
// NotWritablePrimary, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary,
// PrimarySteppedDown, ShutdownInProgress), as the driver's own retryable
// write logic lists them beside WriteConflict (lostRace).
var notWrittenCodes = []int{11600, 11602, 10107, 13435, 13436, 189, 91}

// notWritten reports a server's answer that it wrote nothing and another
// try may succeed: a code above, a TransientTransactionError or
// RetryableWriteError label, or a lost race.
func notWritten(err error) bool {
	var se mongo.ServerError
	if !errors.As(err, &se) {
		return false
	}
	for _, code := range notWrittenCodes {
		if se.HasErrorCode(code) {
			return true
		}
	}
	return se.HasErrorLabel("TransientTransactionError") || se.HasErrorLabel("RetryableWriteError") || lostRace(err)
}

// notWrittenError is a write error that says nothing was written.
type notWrittenError struct{ err error }

func (e *notWrittenError) Error() string   { return e.err.Error() }
func (e *notWrittenError) Unwrap() []error { return []error{e.err, store.ErrNotWritten} }

// lostReplyError is a write error whose outcome is unknown.
type lostReplyError struct{ err error }

func (e *lostReplyError) Error() string   { return e.err.Error() }
func (e *lostReplyError) Unwrap() []error { return []error{e.err, store.ErrOutcomeUnknown} }

// find runs one find, bounded by the operation timeout, and hands each
// document (a copy) to fn.
func (b *conn) find(ctx context.Context, q findQuery, fn func(bson.Raw) error) error {
	ctx, cancel := context.WithTimeout(ctx, b.opTime)
	defer cancel()
	return b.scan(ctx, q, fn)
}

// scan is find bounded by the caller's context only: a whole collection
// may take longer than one round trip.
func (b *conn) scan(ctx context.Context, q findQuery, fn func(bson.Raw) error) error {
	return b.wrapOp("find", q.coll, b.clock.run(ctx, func(ctx context.Context) error {
		var lo []options.Lister[options.FindOptions]
		if opts := q.options(); opts != nil {
			lo = append(lo, opts)
		}
		cur, err := b.coll(q.coll).Find(ctx, q.filter, lo...)
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
