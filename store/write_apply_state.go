package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// The frame of every write on the backend and the bucket state machine
// under it: begin logs the audit's intent, finish commits, tags the cache
// keys and logs the outcome; between them a write's own steps update and
// insert OpenIM's buckets, each tried again while the backend says nothing
// was written. Every step here calls only downward, to the counted backend
// directly: a write calls begin, its steps and finish in turn.

// writing is a write under way on the backend: what it was asked, its
// audit line and its progress.
type writing struct {
	action, cid string
	seqs        []int64
	entry       AuditEntry
	p           *progress
}

// begin starts a write: it refuses in read-only mode and logs the write's
// intent. The intent line goes first so that a process killed part way
// still leaves the seqs it may have touched in the log. The write's own
// steps then record their progress in the writing's p, and finish ends it.
func (s *applying) begin(ctx context.Context, action, cid string, seqs []int64, as string) (*writing, error) {
	entry := AuditEntry{Time: time.Now().UTC(), Operator: s.operator, Action: action,
		Conversation: cid, Seqs: seqs, As: as, Admin: actingAsAdmin(ctx), Result: ResultIntent}
	if s.readOnly {
		entry.Result, entry.Error = ResultRefused, ErrReadOnly.Error()
		_ = s.audit.Append(entry)
		return nil, ErrReadOnly
	}
	if err := s.audit.Append(entry); err != nil {
		return nil, fmt.Errorf("%s not attempted, the audit log failed: %w", action, err)
	}
	p := &progress{total: len(seqs)}
	p.report, _ = ctx.Value(progressKey{}).(func(done, total int))
	return &writing{action: action, cid: cid, seqs: seqs, entry: entry, p: p}, nil
}

// finish ends a write begun with begin whose steps returned err: it
// commits at the backend, invalidates the cache keys of its seqs after the
// backend change, and logs the outcome. A write that stops part way has
// changed some slots: their keys are invalidated all the same, and the
// error and the outcome line say which seqs were done and which are
// unknown.
func (s *applying) finish(ctx context.Context, w *writing, err error) (WriteResult, error) {
	action, cid, seqs, entry, p := w.action, w.cid, w.seqs, w.entry, w.p
	res := WriteResult{Seqs: seqs}
	var stale *staleCacheError
	if errors.As(err, &stale) {
		res.StaleCache, err = stale.err, nil
	}
	if ferr := s.flush(ctx); ferr != nil {
		// The backend held the writes to commit them together, and could
		// not: none of them is known to be stored.
		p.unknown, p.applied = append(p.unknown, p.applied...), nil
		err = errors.Join(err, fmt.Errorf("%w: %w", ErrOutcomeUnknown, ferr))
	}
	res.Applied, res.Unknown = p.applied, p.unknown

	if err == nil || len(p.applied) > 0 || len(p.unknown) > 0 {
		// Tag every key the write meant to touch: a key it did not reach
		// costs a cache miss, one it did and kept would serve the old slot.
		s.invalidate(ctx, cid, seqs, &res)
	}
	entry.Time, entry.Result, entry.Retried = time.Now().UTC(), ResultOK, p.retried
	if err != nil {
		entry.Result, entry.Applied, entry.Unknown = outcome(p, err), p.applied, p.unknown
		err = partialError(action, p, err)
		entry.Error = err.Error()
		if res.StaleCache != nil {
			entry.Error += "; " + res.StaleCache.Error()
		}
		_ = s.audit.Append(entry)
		return res, err
	}
	if res.StaleCache != nil {
		entry.Result, entry.Error = ResultOKCacheStale, res.StaleCache.Error()
	}
	if aerr := s.audit.Append(entry); aerr != nil {
		return res, fmt.Errorf("write done but audit log failed: %w", aerr)
	}
	return res, nil
}

// flush ends a write at the backend (Backend.Flush): the write is done only
// once its commit is, even if ctx was cancelled meanwhile.
func (s *applying) flush(ctx context.Context) error {
	return s.backend.Flush(context.WithoutCancel(ctx))
}

// invalidate tags the MSG_CACHE keys of seqs, recording keys it could not.
func (s *applying) invalidate(ctx context.Context, cid string, seqs []int64, res *WriteResult) {
	if s.cache == nil || len(seqs) == 0 {
		return
	}
	err := s.cache.Invalidate(ctx, cid, seqs)
	s.cacheResult(err)
	if err != nil {
		res.StaleCache = errors.Join(res.StaleCache,
			fmt.Errorf("MSG_CACHE keys of %s seqs %s not invalidated: %w", cid, FormatSeqs(seqs), err))
	}
}

// adminContext marks ctx when req's operator acts as an app admin.
func adminContext(ctx context.Context, req WriteRequest) context.Context {
	if req.Admin {
		return context.WithValue(ctx, adminKey{}, true)
	}
	return ctx
}

// adminKey marks a context whose writes an operator makes as an app admin.
type adminKey struct{}

func actingAsAdmin(ctx context.Context) bool {
	v, _ := ctx.Value(adminKey{}).(bool)
	return v
}

// writeSlots is OpenIM's bucket state machine, one round trip per bucket
// rather than per seq: for the seqs (ascending, distinct) that fall in one
// bucket, try one $set of all their slots on the existing bucket; when no
// bucket matches, build a new 100-slot bucket holding them and insert it; a
// duplicate key means someone created it first, so step back and update
// instead. After an insert the next bucket is tried by insert first, as
// OpenIM's BatchInsertBlock does. Replaying the same values leaves the same
// documents. With unlessSet the update carries every slot's checked state in
// its filter (the field holds no document yet); see unlessSetEach for a miss.
// It returns the seqs whose field was set already (unlessSet only). Each seq
// stored is recorded in p as done, each seq of a round trip whose reply was
// lost as unknown; ctx is checked before every round trip.
func (s *applying) writeSlots(ctx context.Context, p *progress, cid string, seqs []int64, field string, values []any, unlessSet bool) (refused []int64, err error) {
	for _, seq := range seqs {
		if seq < 1 {
			return nil, fmt.Errorf("seq %d: seqs start at 1", seq)
		}
	}
	tryUpdate := true
	for i := 0; i < len(seqs); {
		end := bucketRunEnd(seqs, i)
		r, err := s.writeBucket(ctx, p, cid, seqs[i:end], field, values[i:end], unlessSet, &tryUpdate)
		refused = append(refused, r...)
		if err != nil {
			return refused, err
		}
		i = end
	}
	return refused, nil
}

// bucketRunEnd is the end of the run of seqs from i that fall in one bucket.
func bucketRunEnd(seqs []int64, i int) int {
	end := i + 1
	for end < len(seqs) && bucket.BucketIndex(seqs[end]) == bucket.BucketIndex(seqs[i]) {
		end++
	}
	return end
}

// writeBucket runs the state machine for seqs, all in one bucket.
func (s *applying) writeBucket(ctx context.Context, p *progress, cid string, seqs []int64, field string, values []any, unlessSet bool, tryUpdate *bool) ([]int64, error) {
	docID := bucket.DocIDForSeq(cid, seqs[0])
	exists, retries := false, 0 // retries: tries again after ErrNotWritten
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if *tryUpdate {
			sets := make([]SlotValue, len(seqs))
			for i, seq := range seqs {
				sets[i] = SlotValue{Slot: bucket.SlotIndex(seq), Value: values[i]}
			}
			set := s.backend.SetSlotsField
			if unlessSet {
				set = s.backend.SetSlotsFieldIfUnset
			}
			matched, err := set(ctx, docID, field, sets)
			if err != nil && retryAfter(ctx, p, err, retries) {
				retries++
				continue
			}
			if err != nil {
				p.failed(err, seqs...)
				return nil, fmt.Errorf("seq %s: %w", FormatSeqs(seqs), triedNote(err, retries))
			}
			if matched {
				p.done(seqs...)
				return nil, nil
			}
			if unlessSet && exists { // the bucket is there: some condition did not hold
				return s.unlessSetEach(ctx, p, docID, seqs, field, values)
			}
		}
		doc := bucket.NewDoc(docID)
		for i, seq := range seqs {
			setSlotField(doc.Msgs[bucket.SlotIndex(seq)], field, values[i])
		}
		err := s.backend.InsertBucket(ctx, doc)
		switch {
		case errors.Is(err, ErrDuplicateKey):
			*tryUpdate, exists = true, true // the bucket exists now: update it
		case err != nil && retryAfter(ctx, p, err, retries):
			*tryUpdate = true // another writer may have created it meanwhile
			retries++
		case err != nil:
			p.failed(err, seqs...)
			return nil, fmt.Errorf("seq %s: %w", FormatSeqs(seqs), triedNote(err, retries))
		default:
			p.done(seqs...)
			*tryUpdate = false
			return nil, nil
		}
	}
}

// unlessSetEach writes seqs of an existing bucket one slot at a time, each
// update conditional on its own slot. The bucket's update carried every
// slot's condition, so a miss says only that at least one slot was set
// meanwhile, not which: slot by slot, those that match are done, those that
// do not were set by another writer and are returned.
func (s *applying) unlessSetEach(ctx context.Context, p *progress, docID string, seqs []int64, field string, values []any) ([]int64, error) {
	var refused []int64
	for i, seq := range seqs {
		if err := ctx.Err(); err != nil {
			return refused, err
		}
		var matched bool
		err := retrying(ctx, p, func() (err error) {
			matched, err = s.backend.SetSlotFieldIfUnset(ctx, docID, bucket.SlotIndex(seq), field, values[i])
			return err
		})
		if err != nil {
			p.failed(err, seq)
			return refused, fmt.Errorf("seq %d: %w", seq, err)
		}
		if matched {
			p.done(seq)
		} else {
			refused = append(refused, seq)
			p.skipped(seq)
		}
	}
	return refused, nil
}

func setSlotField(slot *bucket.Slot, field string, value any) {
	switch field {
	case FieldMsg:
		slot.Msg = value.(*bucket.MsgData)
	case FieldRevoke:
		slot.Revoke = value.(*bucket.Revoke)
	default:
		panic("state machine: unknown slot field " + field)
	}
}

// MaxWriteRetries bounds the retries of one bucket: a failover elects a
// primary within seconds, a deadlock victim wins on its next try.
const MaxWriteRetries = 3

// retryBackoff is the wait before retry n (1-based): 20, 40, 80 ms.
func retryBackoff(n int) time.Duration { return 10 * time.Millisecond << n }

// retryAfter tells whether err, of a bucket tried retries times already,
// is tried again; it waits the backoff first and counts the retry in p.
func retryAfter(ctx context.Context, p *progress, err error, retries int) bool {
	if !errors.Is(err, ErrNotWritten) || errors.Is(err, ErrOutcomeUnknown) || retries >= MaxWriteRetries {
		return false
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(retryBackoff(retries + 1)):
	}
	p.retried++
	return true
}

// triedNote adds to err, of a bucket tried again retries times, how many
// tries were made.
func triedNote(err error, retries int) error {
	if retries == 0 {
		return err
	}
	return fmt.Errorf("%w (tried %d times)", err, retries+1)
}

// retrying runs try, and again while retryAfter allows, for a round trip
// other than a bucket's (the state machine retries those itself, deciding
// afresh between update and insert); the error says how often it was tried.
func retrying(ctx context.Context, p *progress, try func() error) error {
	err, retries := try(), 0
	for ; err != nil && retryAfter(ctx, p, err, retries); retries++ {
		err = try()
	}
	if err == nil {
		return nil
	}
	return triedNote(err, retries)
}
