package demo

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// bulkWriter gathers what the writer would send one write at a time, of
// many conversations, and sends it a few requests at a time once about
// Options.BulkBytes are gathered: over a link where every round trip costs
// a millisecond or more, one small write after another is what makes a
// seed slow. A flush sends, in this order, so that a seed stopped between
// any two requests leaves what the one-by-one writer leaves of the
// conversation it stopped in:
//
//  1. the seq documents raised over the batches gathered (one bulk write),
//     before any of their buckets, as writer.batch raises them;
//  2. the membership documents gathered (one bulk upsert a collection),
//     before the messages they pull; a conversation whose read flags are
//     set in memory (readPlan) has its read seqs in its seq_user ones;
//  3. the buckets, in the order gathered (ordered inserts: the server
//     stops at the first it refuses, and what went before it is known);
//     a bucket that exists goes through the store's state machine.
//
// Each step lands what it stored with the writer (writer.landed), bucket
// by bucket, so a seed stopped part way says exactly what stands.
type bulkWriter struct {
	w       *writer
	limit   int // bytes gathered before a flush
	size    int
	raises  []store.SeqRaise
	raiseAt map[string]int // position in raises, by conversation
	members []membership
	buckets []pendingBucket
}

// pendingBucket is a new bucket gathered, what it lands once stored, and
// what writing it through the state machine needs if it exists already.
type pendingBucket struct {
	doc     *bucket.Doc
	land    landing // its messages: cid, the highest seq, how many
	first   int64
	part    []*bucket.MsgData
	revoked map[int64]*bucket.Revoke
	deleted map[int64][]string
	marks   []slotRead // read flags set in doc, to mark after the state machine
}

// slotRead is a slot marked read in memory, and a reader who did not send it.
type slotRead struct {
	slot   int
	reader string
}

func newBulkWriter(w *writer, limit int) *bulkWriter {
	return &bulkWriter{w: w, limit: limit, raiseAt: map[string]int{}}
}

// raise gathers cid's max_seq raised to at least seq.
func (b *bulkWriter) raise(cid string, seq int64) {
	if i, ok := b.raiseAt[cid]; ok {
		b.raises[i].MaxSeq = max(b.raises[i].MaxSeq, seq)
		return
	}
	b.raiseAt[cid] = len(b.raises)
	b.raises = append(b.raises, store.SeqRaise{Cid: cid, MaxSeq: seq})
}

// member gathers m.
func (b *bulkWriter) member(ctx context.Context, m membership) error {
	b.members = append(b.members, m)
	return b.grew(ctx, 256*(len(m.seqUsers)+len(m.convs)+len(m.members)+len(m.groups)))
}

// bucket gathers p, flushing once the bound is reached.
func (b *bulkWriter) bucket(ctx context.Context, p pendingBucket) error {
	raw, err := bson.Marshal(p.doc)
	if err != nil {
		return fmt.Errorf("encoding bucket %s: %w", p.doc.DocID, err)
	}
	b.buckets = append(b.buckets, p)
	return b.grew(ctx, len(raw))
}

func (b *bulkWriter) grew(ctx context.Context, n int) error {
	if b.size += n; b.size < b.limit {
		return nil
	}
	return b.flush(ctx)
}

// flush sends what was gathered, in the order of bulkWriter's steps. What
// was gathered is sent whole even once ctx ends: it was planned and
// handed over, as a batch begun is written whole.
func (b *bulkWriter) flush(ctx context.Context) error {
	write := context.WithoutCancel(ctx)
	backend := b.w.st.Backend()
	raises, members, buckets := b.raises, b.members, b.buckets
	b.raises, b.raiseAt, b.members, b.buckets, b.size = nil, map[string]int{}, nil, nil, 0
	if err := backend.RaiseMaxSeqs(write, raises); err != nil {
		return err
	}
	if err := b.sendMembers(write, members); err != nil {
		return err
	}
	if err := b.sendBuckets(ctx, write, buckets); err != nil {
		return err
	}
	if err := backend.Flush(write); err != nil {
		return err
	}
	b.w.settle(true)
	return nil
}

// sendMembers upserts the membership documents, one request a collection.
func (b *bulkWriter) sendMembers(ctx context.Context, members []membership) error {
	if len(members) == 0 {
		return nil
	}
	var seqUsers, convs, groups, groupMembers []any
	for _, m := range members {
		seqUsers, convs = append(seqUsers, m.seqUsers...), append(convs, m.convs...)
		groups, groupMembers = append(groups, m.groups...), append(groupMembers, m.members...)
	}
	for _, part := range []struct {
		coll string
		docs []any
	}{{bucket.CollSeqUser, seqUsers}, {bucket.CollConversation, convs},
		{bucket.CollGroup, groups}, {bucket.CollGroupMember, groupMembers}} {
		if err := b.w.raw(ctx, part.coll, part.docs); err != nil {
			return err
		}
	}
	for _, m := range members {
		b.w.landed(landing{cid: m.cid, members: true})
	}
	return nil
}

// sendBuckets inserts buckets in order, landing each one stored; one that
// exists already is written through the state machine, then marked read
// as in memory, and the inserts go on after it.
func (b *bulkWriter) sendBuckets(ctx, write context.Context, buckets []pendingBucket) error {
	docs := make([]*bucket.Doc, len(buckets))
	for i, p := range buckets {
		docs[i] = p.doc
	}
	for from := 0; from < len(buckets); {
		n, err := b.w.st.Backend().InsertBuckets(write, docs[from:])
		for _, p := range buckets[from : from+n] {
			b.w.landed(p.land)
		}
		from += n
		if err == nil {
			continue
		}
		if !errors.Is(err, store.ErrDuplicateKey) {
			return fmt.Errorf("conversation %s: bucket %s: %w", buckets[from].land.cid, docs[from].DocID, err)
		}
		p := buckets[from]
		err = b.w.throughStateMachine(ctx, p.land.cid, p.first, p.part, p.revoked, p.deleted)
		if err == nil {
			err = markReads(write, b.w.st, p.doc.DocID, p.marks)
		}
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("conversation %s: bucket %s: %w", p.land.cid, p.doc.DocID, err)
		}
		b.w.landed(p.land)
		from++
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
