package demo

import (
	"context"
	"errors"
	"fmt"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// buckets writes msgs, planned at the seqs after base (a multiple of the
// bucket size; nil is a hole), with the revokes and deletes of their seqs,
// a batch at a time (see batch). ctx is checked between batches.
//
// With a bulk writer the batches are gathered for it instead, and reads
// (nil: not known yet) sets the read flags the mark reads would.
func (w *writer) buckets(ctx context.Context, cid string, base int64, msgs []*bucket.MsgData,
	revokes []revokePlan, deletes []deletePlan, reads *readPlan) error {
	revoked := map[int64]*bucket.Revoke{}
	for _, r := range revokes {
		if _, ok := revoked[r.seq]; !ok { // the first revoke wins, as "unless set" does
			rev := r.rev
			revoked[r.seq] = &rev
		}
	}
	deleted := map[int64][]string{}
	for _, d := range deletes {
		deleted[d.seq] = appendNew(deleted[d.seq], d.uid)
	}
	for from := 0; from < len(msgs); {
		if err := ctx.Err(); err != nil {
			return err
		}
		// A batch ends on the next multiple of batchSize.
		end := min(len(msgs), from+batchSize-int((base+int64(from))%batchSize))
		if err := w.batch(ctx, cid, base+int64(from), msgs[from:end], revoked, deleted, reads); err != nil {
			return err
		}
		from = end
	}
	w.revoked += len(revoked)
	for _, uids := range deleted {
		w.deleted += len(uids)
	}
	return nil
}

// batch writes msgs, planned at the seqs after base, a bucket at a time.
// Each bucket is built whole in memory, revokes and del_lists in place,
// and inserted once: the documents the state machine leaves after
// inserting the messages and then revoking and deleting one seq at a
// time, without rewriting a bucket for every revoke and delete (the third
// of a seed's time). That is the state machine's insert branch for a
// bucket no one wrote yet; a bucket that exists already (seed --force)
// goes through the store's state machine, messages first.
//
// The seq document is raised over the batch before its buckets are
// written, as OpenIM's allocator reserves a block of seqs before they are
// used: writes reach the file in order, so a seed killed at any moment
// leaves no message above max_seq (OpenIM would hand its seq out again).
func (w *writer) batch(ctx context.Context, cid string, base int64, msgs []*bucket.MsgData,
	revoked map[int64]*bucket.Revoke, deleted map[int64][]string, reads *readPlan) error {
	var top int64 // the batch's highest message seq
	n := 0
	for i, m := range msgs {
		if m != nil {
			top, n = base+int64(i)+1, n+1
		}
	}
	if n == 0 {
		return nil
	}
	backend := w.st.Backend()
	// A batch once begun is written whole.
	write := context.WithoutCancel(ctx)
	if w.bulk != nil {
		w.bulk.raise(cid, top) // sent before any bucket gathered after it
	} else if err := backend.RaiseMaxSeq(write, cid, top); err != nil {
		return err
	}
	for from := 0; from < len(msgs); from += bucket.BucketSize {
		part := msgs[from:min(from+bucket.BucketSize, len(msgs))]
		first := base + int64(from) + 1
		doc := bucket.NewDoc(bucket.DocIDForSeq(cid, first))
		land := landing{cid: cid}
		var marks []slotRead
		for i, m := range part {
			if m == nil {
				continue
			}
			seq := first + int64(i)
			slot := doc.Msgs[bucket.SlotIndex(seq)]
			slot.Msg, slot.Revoke = m, revoked[seq]
			if uids := deleted[seq]; len(uids) > 0 {
				slot.DelList = uids
			}
			if reads != nil {
				if r, ok := reads.mark(doc, seq, m); ok {
					marks = append(marks, r)
				}
			}
			land.top, land.messages = seq, land.messages+1
		}
		if land.messages == 0 {
			continue
		}
		if w.bulk != nil {
			err := w.bulk.bucket(ctx, pendingBucket{doc: doc, land: land, first: first, part: part,
				revoked: revoked, deleted: deleted, marks: marks})
			if err != nil {
				return err
			}
			continue
		}
		err := backend.InsertBucket(write, doc)
		if errors.Is(err, store.ErrDuplicateKey) {
			err = w.throughStateMachine(ctx, cid, first, part, revoked, deleted)
		}
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("bucket %s: %w", doc.DocID, err)
		}
	}
	if w.bulk != nil {
		return nil // landed bucket by bucket as the bulk writer stores them
	}
	if err := backend.Flush(write); err != nil {
		return err
	}
	w.landed(landing{cid: cid, top: top, messages: n})
	return nil
}

// throughStateMachine writes one bucket's messages, planned at the seqs
// from first, through the store, then their revokes and deletes one seq
// at a time.
func (w *writer) throughStateMachine(ctx context.Context, cid string, first int64, part []*bucket.MsgData,
	revoked map[int64]*bucket.Revoke, deleted map[int64][]string) error {
	var run []*bucket.MsgData
	runFirst := first
	insert := func() error {
		if len(run) == 0 {
			return nil
		}
		_, err := w.st.InsertMessages(ctx, cid, runFirst, run)
		run = nil
		return err
	}
	for i, m := range part {
		if m == nil {
			if err := insert(); err != nil {
				return err
			}
			continue
		}
		if len(run) == 0 {
			runFirst = first + int64(i)
		}
		run = append(run, m)
	}
	if err := insert(); err != nil {
		return err
	}
	for i := range part {
		seq := first + int64(i)
		if rev := revoked[seq]; rev != nil {
			if _, err := w.st.Revoke(ctx, cid, []int64{seq}, *rev); err != nil && !revokedBefore(err) {
				return err
			}
		}
	}
	for i := range part {
		seq := first + int64(i)
		for _, uid := range deleted[seq] {
			if _, err := w.st.DeleteForMe(ctx, cid, []int64{seq}, uid); err != nil {
				return err
			}
		}
	}
	return nil
}

// revokedBefore tells a revoke refused only because the seq was revoked
// already (seed --force over a store holding the demo): the first revoke
// wins, as it does in a bucket built whole.
func revokedBefore(err error) bool {
	var te *store.TargetError
	if !errors.As(err, &te) || len(te.Refused) == 0 {
		return false
	}
	for _, r := range te.Refused {
		if r.Reason != store.ReasonRevokedMeanwhile {
			return false
		}
	}
	return true
}

// appendNew appends s unless xs holds it, as $addToSet does.
func appendNew(xs []string, s string) []string {
	for _, x := range xs {
		if x == s {
			return xs
		}
	}
	return append(xs, s)
}
