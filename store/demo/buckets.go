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
// a bucket at a time. Each bucket is built whole in memory, revokes and
// del_lists in place, and inserted once: the documents the state machine
// leaves after inserting the messages and then revoking and deleting one
// seq at a time, without rewriting a bucket for every revoke and delete
// (the third of a seed's time). That is the state machine's insert branch
// for a bucket no one wrote yet; a bucket that exists already (seed
// --force) goes through the store's state machine, messages first.
func (w *writer) buckets(ctx context.Context, cid string, base int64, msgs []*bucket.MsgData,
	revokes []revokePlan, deletes []deletePlan) error {
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
	backend := w.st.Backend()
	// A bucket once begun is written whole; ctx is checked between batches.
	write := context.WithoutCancel(ctx)
	var written, top int64 // messages written since the last progress report, highest seq
	report := func() error {
		if written == 0 {
			return nil
		}
		if err := backend.RaiseMaxSeq(write, cid, top); err != nil {
			return err
		}
		if err := backend.Flush(write); err != nil {
			return err
		}
		w.done += int(written)
		w.storedUpTo(cid, top)
		written = 0
		if w.progress != nil {
			w.progress(w.done, w.total)
		}
		return nil
	}
	for from := 0; from < len(msgs); from += bucket.BucketSize {
		if (base+int64(from))%batchSize == 0 {
			if err := report(); err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		part := msgs[from:min(from+bucket.BucketSize, len(msgs))]
		first := base + int64(from) + 1
		doc := bucket.NewDoc(bucket.DocIDForSeq(cid, first))
		n := 0
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
			n++
			top = seq
		}
		if n == 0 {
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
		written += int64(n)
	}
	if err := report(); err != nil {
		return err
	}
	w.revoked += len(revoked)
	for _, uids := range deleted {
		w.deleted += len(uids)
	}
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
