package demo

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// bulkWriter gathers the documents of many conversations and sends them a
// few requests at a time (Options.BulkBytes): the new buckets in ordered
// inserts, the other collections in bulk upserts, each request bounded by
// the backend (RawBatch documents on MongoDB). Over a link where every
// round trip costs a millisecond or more, one small write after another
// is what makes a seed slow. What it sends is what the writer sends one
// write at a time: the same documents (read flags and read seqs set in
// memory, see readPlan), and a bucket that exists already goes through
// the store's state machine as before.
type bulkWriter struct {
	st      *store.Store
	limit   int // bytes gathered before a flush
	size    int
	buckets []pendingBucket
	colls   []string // the other collections, in first-added order
	docs    map[string][]bson.Raw
	maxSeq  map[string]int64 // seq documents, by conversation
	order   []string         // conversations of maxSeq, in order
	after   []func()         // what a flush makes true (progress)
}

// pendingBucket is a new bucket gathered, and what writing it through the
// state machine needs if it exists already.
type pendingBucket struct {
	raw     bson.Raw
	cid     string
	first   int64
	part    []*bucket.MsgData
	revoked map[int64]*bucket.Revoke
	deleted map[int64][]string
	reads   []slotRead // read flags set in raw, to mark after the state machine
}

// slotRead is a slot marked read in memory, and a reader who did not send it.
type slotRead struct {
	slot   int
	reader string
}

func newBulkWriter(st *store.Store, limit int) *bulkWriter {
	return &bulkWriter{st: st, limit: limit, docs: map[string][]bson.Raw{}, maxSeq: map[string]int64{}}
}

// addBucket gathers doc, inserted whole unless it exists.
func (b *bulkWriter) addBucket(ctx context.Context, doc *bucket.Doc, p pendingBucket) error {
	raw, err := bson.Marshal(struct {
		ID  bson.ObjectID `bson:"_id"`
		Doc *bucket.Doc   `bson:",inline"`
	}{bson.NewObjectID(), doc})
	if err != nil {
		return fmt.Errorf("encoding bucket %s: %w", doc.DocID, err)
	}
	p.raw = raw
	b.buckets = append(b.buckets, p)
	return b.grew(ctx, len(raw))
}

// addRaw gathers docs of coll, stored as InsertRaw's RawUpsert stores them.
func (b *bulkWriter) addRaw(ctx context.Context, coll string, docs []bson.Raw) error {
	if _, ok := b.docs[coll]; !ok {
		b.colls = append(b.colls, coll)
	}
	n := 0
	for _, d := range docs {
		n += len(d)
	}
	b.docs[coll] = append(b.docs[coll], docs...)
	return b.grew(ctx, n)
}

// raiseMaxSeq gathers cid's seq document with max_seq at least seq, as
// RaiseMaxSeq's upsert creates it.
func (b *bulkWriter) raiseMaxSeq(cid string, seq int64) {
	if _, ok := b.maxSeq[cid]; !ok {
		b.order = append(b.order, cid)
	}
	b.maxSeq[cid] = max(b.maxSeq[cid], seq)
}

// then runs fn once what was gathered so far is stored.
func (b *bulkWriter) then(fn func()) { b.after = append(b.after, fn) }

func (b *bulkWriter) grew(ctx context.Context, n int) error {
	if b.size += n; b.size < b.limit {
		return nil
	}
	return b.flush(ctx)
}

// flush stores what was gathered: the buckets (those that exist already
// through the state machine), the seq documents, the other collections.
func (b *bulkWriter) flush(ctx context.Context) error {
	write := context.WithoutCancel(ctx) // what was gathered is written whole
	if err := b.flushBuckets(write); err != nil {
		return err
	}
	seqs := make([]bson.Raw, 0, len(b.order))
	for _, cid := range b.order {
		// RaiseMaxSeq's upsert: _id, the filter, then $max and
		// $setOnInsert's fields in lexicographic order.
		raw, err := bson.Marshal(bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "conversation_id", Value: cid},
			{Key: "max_seq", Value: b.maxSeq[cid]}, {Key: "min_seq", Value: int64(0)}})
		if err != nil {
			return err
		}
		seqs = append(seqs, raw)
	}
	if err := b.upsert(write, bucket.CollSeq, seqs); err != nil {
		return err
	}
	for _, coll := range b.colls {
		if err := b.upsert(write, coll, b.docs[coll]); err != nil {
			return err
		}
	}
	if err := b.st.Backend().Flush(write); err != nil {
		return err
	}
	after := b.after
	b.buckets, b.colls, b.docs, b.maxSeq, b.order, b.after, b.size = nil, nil, map[string][]bson.Raw{}, map[string]int64{}, nil, nil, 0
	for _, fn := range after {
		fn()
	}
	return nil
}

func (b *bulkWriter) upsert(ctx context.Context, coll string, docs []bson.Raw) error {
	if len(docs) == 0 {
		return nil
	}
	_, err := b.st.Backend().InsertRaw(ctx, coll, docs, store.RawUpsert)
	return err
}

// flushBuckets inserts the gathered buckets; the ones stored already are
// written through the state machine, then marked read as in memory.
func (b *bulkWriter) flushBuckets(ctx context.Context) error {
	if len(b.buckets) == 0 {
		return nil
	}
	raws := make([]bson.Raw, len(b.buckets))
	for i, p := range b.buckets {
		raws[i] = p.raw
	}
	res, err := b.st.Backend().InsertRaw(ctx, bucket.CollMsg, raws, store.RawInsert)
	if err != nil {
		return err
	}
	for _, i := range res.Refused {
		p := b.buckets[i]
		if err := throughStateMachine(ctx, b.st, p.cid, p.first, p.part, p.revoked, p.deleted); err != nil {
			return fmt.Errorf("bucket %s: %w", bucket.DocIDForSeq(p.cid, p.first), err)
		}
		if err := markReads(ctx, b.st, bucket.DocIDForSeq(p.cid, p.first), p.reads); err != nil {
			return err
		}
	}
	return nil
}

// markReads sets the read flags of reads in docID with the filtered
// update a mark read sends, one request per reader.
func markReads(ctx context.Context, st *store.Store, docID string, reads []slotRead) error {
	by := map[string][]int{}
	var readers []string
	for _, r := range reads {
		if _, ok := by[r.reader]; !ok {
			readers = append(readers, r.reader)
		}
		by[r.reader] = append(by[r.reader], r.slot)
	}
	for _, u := range readers {
		if _, err := st.Backend().MarkSlotsRead(ctx, []store.BucketSlots{{DocID: docID, Slots: by[u]}}, u); err != nil {
			return err
		}
	}
	return nil
}

// readPlan is what a conversation's mark reads leave, known when all of
// it was planned before any of it was written: each participant's read
// seq, and in a single chat every message up to it that they received,
// in a group the message at it, marked read (writer.reads, with the
// filter of OpenIM's mark read: a reader's own message stays unread).
type readPlan struct {
	single  bool
	users   []string
	readSeq map[string]int64
}

// mark sets the read flags of doc's slot holding m at seq, and returns
// the slot and a reader if it did.
func (r *readPlan) mark(doc *bucket.Doc, seq int64, m *bucket.MsgData) (slotRead, bool) {
	for _, u := range r.users {
		top := r.readSeq[u]
		if top < 1 || seq > top || m.SendID == u || !r.single && seq != top {
			continue
		}
		i := bucket.SlotIndex(seq)
		doc.Msgs[i].IsRead = true
		return slotRead{slot: i, reader: u}, true
	}
	return slotRead{}, false
}
