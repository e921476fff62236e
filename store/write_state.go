package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// Slot fields the state machine writes.
const (
	FieldMsg    = "msg"
	FieldRevoke = "revoke"
)

// ErrAlreadySet is a conditional write that found the slot field set: a
// concurrent writer got there between the check and the write.
var ErrAlreadySet = errors.New("already set")

// ErrOutcomeUnknown marks a write whose request may have reached the server
// but whose reply was lost (connection dropped, no answer in time): it may
// have landed. Backends wrap such errors with it; the state machine then
// reports those seqs as unknown, never as not done.
var ErrOutcomeUnknown = errors.New("outcome unknown")

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

// WriteResult tells what a write did beyond succeeding.
type WriteResult struct {
	Seqs []int64 // the seqs the write was asked to touch
	// Applied are the seqs whose slots were changed before a failure
	// stopped the write part way (all of Seqs when it succeeded).
	Applied []int64
	// Unknown are the seqs of a round trip whose reply was lost: the
	// server may or may not have written them.
	Unknown []int64
	// StaleCache names the cache keys that could not be invalidated: the
	// backend change stands, but readers of the cache may see the old slot
	// until the keys expire.
	StaleCache error
}

// InsertMessages stores msgs at consecutive seqs from firstSeq (each msg's
// Seq is set to its position) and raises seq.max_seq.
func (s *applying) InsertMessages(ctx context.Context, cid string, firstSeq int64, msgs []*bucket.MsgData) (WriteResult, error) {
	seqs := seqRange(firstSeq, len(msgs))
	return s.write(ctx, "insert", cid, seqs, "", func(p *progress) error {
		values := make([]any, len(msgs))
		for i, m := range msgs {
			m.Seq = firstSeq + int64(i)
			values[i] = m
		}
		if _, err := s.writeSlots(ctx, p, cid, seqs, FieldMsg, values, false); err != nil {
			return err
		}
		if len(msgs) == 0 {
			return nil
		}
		return retrying(ctx, p, func() error {
			return s.backend.RaiseMaxSeq(ctx, cid, firstSeq+int64(len(msgs))-1)
		})
	})
}

// ReasonRevokedMeanwhile is Revoke's refusal of a seq whose "not revoked
// yet" filter failed: someone revoked it first, and the first revoker stays.
const ReasonRevokedMeanwhile = "already revoked (by another writer meanwhile)"

// Revoke marks each of seqs as revoked by rev, through the state machine
// (a missing bucket is created, as the server does), one round trip per
// bucket. Each update carries "not revoked yet" in its filter: a seq another
// writer revoked first is left alone and reported already revoked, the
// others are still done.
func (s *applying) Revoke(ctx context.Context, cid string, seqs []int64, rev bucket.Revoke) (WriteResult, error) {
	if rev.Time == 0 {
		rev.Time = time.Now().UnixMilli()
	}
	return s.write(ctx, "revoke", cid, seqs, rev.UserID, func(p *progress) error {
		values := make([]any, len(seqs))
		for i := range seqs {
			r := rev
			values[i] = &r
		}
		already, err := s.writeSlots(ctx, p, cid, seqs, FieldRevoke, values, true)
		if err != nil {
			return err
		}
		if len(already) == 0 {
			return nil
		}
		refused := &TargetError{Action: ActionRevoke, Cid: cid, UserID: rev.UserID}
		for _, seq := range already {
			refused.add(ReasonRevokedMeanwhile, seq)
		}
		return refused
	})
}

// DeleteForMe hides each of seqs from uid only ($addToSet on del_list),
// one request per bucket carrying one update per slot, as OpenIM's
// DeleteUserMsgsBySeqs (pkg/common/storage/controller/msg.go) sends one
// PushUnique per seq.
func (s *applying) DeleteForMe(ctx context.Context, cid string, seqs []int64, uid string) (WriteResult, error) {
	return s.write(ctx, "delete", cid, seqs, uid, func(p *progress) error {
		return eachBucket(seqs, func(run []int64) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			// A retry adds only the slots the failed request did not
			// reach, as MarkRead's does.
			err := retrying(ctx, p, func() error {
				if len(run) == 0 {
					return nil // the failed request had run every update
				}
				ran, err := s.backend.AddToDelLists(ctx, bucket.DocIDForSeq(cid, run[0]), slotsOf(run), []string{uid})
				ran = min(max(ran, 0), len(run))
				p.done(run[:ran]...)
				run = run[ran:]
				return err
			})
			if err != nil {
				p.failed(err, run...)
				return fmt.Errorf("seq %s: %w", FormatSeqs(run), err)
			}
			p.done(run...)
			return nil
		})
	})
}

// MarkRead marks seqs read by reader as /msg/mark_msgs_as_read does, in
// every kind of conversation (internal/rpc/msg/as_read.go MarkMsgsAsRead
// calls MarkSingleChatMsgsAsRead whatever the type): each slot not sent by
// the reader gets is_read, the same filtered updates the server sends, but
// FindBatch buckets' worth in one request where the server sends one per
// bucket (a round trip each); then the reader's read seq is raised to the
// highest seq marked, never lowered. A write that stops part way still
// raises it to the highest seq it marked, so the unread count follows what
// was done, and says so.
func (s *applying) MarkRead(ctx context.Context, cid string, seqs []int64, reader string) (WriteResult, error) {
	return s.write(ctx, "read", cid, seqs, reader, func(p *progress) error {
		err := eachBuckets(seqs, max(1, s.FindBatch), func(req []int64) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			// A retry marks only the slots the failed request did not
			// reach; a request whose reply was lost leaves all of its
			// seqs not counted by ran unknown.
			err := retrying(ctx, p, func() error {
				if len(req) == 0 {
					return nil // the failed request had run every update
				}
				ran, err := s.backend.MarkSlotsRead(ctx, bucketSlots(cid, req), reader)
				ran = min(max(ran, 0), len(req))
				p.done(req[:ran]...)
				req = req[ran:]
				return err
			})
			if err != nil {
				p.failed(err, req...)
				return fmt.Errorf("seq %s: %w", FormatSeqs(req), err)
			}
			p.done(req...)
			return nil
		})
		if len(p.applied) == 0 {
			return err
		}
		top := slices.Max(p.applied)
		if err == nil {
			return s.raiseReadSeq(ctx, p, cid, reader, top)
		}
		// Stopped part way (Ctrl-C included): one more round trip, past the
		// cancel, so the read seq covers what was marked. It is never
		// lowered: one read before says whether it rose.
		wctx := context.WithoutCancel(ctx)
		before, berr := s.ReadSeqOf(wctx, reader, cid)
		if rerr := s.raiseReadSeq(wctx, p, cid, reader, top); rerr != nil {
			p.note("read seq not raised: " + rerr.Error())
		} else {
			p.note(readSeqNote(before, berr, top))
		}
		return err
	})
}

// readSeqNote says what raising a read seq that was before (unknown when
// berr is set) to top did.
func readSeqNote(before int64, berr error, top int64) string {
	switch {
	case berr != nil:
		return fmt.Sprintf("read seq now at least %d", top)
	case before >= top:
		return fmt.Sprintf("read seq stays %d, past seq %d", before, top)
	}
	return fmt.Sprintf("read seq raised to %d", top)
}

// raiseReadSeq raises reader's read seq of cid to seq in MongoDB and, when
// configured, in Redis (a storage-level write sends no 2200 notice for
// OpenIM's transfer to copy it from one to the other).
func (s *applying) raiseReadSeq(ctx context.Context, p *progress, cid, reader string, seq int64) error {
	err := retrying(ctx, p, func() error {
		return s.backend.RaiseReadSeq(ctx, reader, cid, seq)
	})
	if err != nil {
		return err
	}
	if s.cache != nil {
		err := s.cache.RaiseReadSeq(ctx, cid, reader, seq)
		s.cacheResult(err)
		if err != nil {
			return &staleCacheError{fmt.Errorf("SEQ_USER_READ:%s:%s not raised: %w", cid, reader, err)}
		}
	}
	return nil
}

// eachBucket calls fn with each run of seqs that falls in one bucket, in
// order, until fn fails.
func eachBucket(seqs []int64, fn func(run []int64) error) error {
	for i := 0; i < len(seqs); {
		end := bucketRunEnd(seqs, i)
		if err := fn(seqs[i:end]); err != nil {
			return err
		}
		i = end
	}
	return nil
}

// eachBuckets calls fn with each run of seqs that falls in at most n
// buckets, in order, until fn fails: the seqs of one request that writes
// several buckets.
func eachBuckets(seqs []int64, n int, fn func(run []int64) error) error {
	for i := 0; i < len(seqs); {
		end := i
		for range n {
			if end == len(seqs) {
				break
			}
			end = bucketRunEnd(seqs, end)
		}
		if err := fn(seqs[i:end]); err != nil {
			return err
		}
		i = end
	}
	return nil
}

// bucketSlots is seqs of cid as one run per bucket.
func bucketSlots(cid string, seqs []int64) []BucketSlots {
	var runs []BucketSlots
	for i := 0; i < len(seqs); {
		end := bucketRunEnd(seqs, i)
		runs = append(runs, BucketSlots{DocID: bucket.DocIDForSeq(cid, seqs[i]), Slots: slotsOf(seqs[i:end])})
		i = end
	}
	return runs
}

// slotsOf is the slot of each seq.
func slotsOf(seqs []int64) []int {
	slots := make([]int, len(seqs))
	for i, seq := range seqs {
		slots[i] = bucket.SlotIndex(seq)
	}
	return slots
}

// partialRefusal is a write done for some seqs and refused for others; it
// unwraps to the TargetError naming the refused ones.
type partialRefusal struct {
	te  *TargetError
	msg string
}

func (e *partialRefusal) Error() string { return e.msg }
func (e *partialRefusal) Unwrap() error { return e.te }

// interruptedError is a write stopped by its context (Ctrl-C): it says
// what was done and is still context.Canceled to errors.Is.
type interruptedError struct{ msg string }

func (e *interruptedError) Error() string { return e.msg }
func (e *interruptedError) Unwrap() error { return context.Canceled }

// staleCacheError marks a failure that happened after the backend write stood.
type staleCacheError struct{ err error }

func (e *staleCacheError) Error() string { return e.err.Error() }
func (e *staleCacheError) Unwrap() error { return e.err }

// progress records the seqs a write has changed so far, and those whose
// round trip lost its reply; report, when set, hears how many of total
// seqs have been handled after each round trip.
type progress struct {
	applied, unknown []int64
	handled, total   int
	retried          int // round trips tried again after ErrNotWritten
	report           func(done, total int)
	notes            []string // what else a write that stopped part way did
}

// note adds what else a write that stopped part way did, for its message.
func (p *progress) note(what string) { p.notes = append(p.notes, what) }

func (p *progress) done(seqs ...int64) {
	p.applied = append(p.applied, seqs...)
	p.step(len(seqs))
}

// skipped records seqs left alone on purpose (already set).
func (p *progress) skipped(seqs ...int64) { p.step(len(seqs)) }

func (p *progress) step(n int) {
	p.handled += n
	if p.report != nil && n > 0 {
		p.report(p.handled, p.total)
	}
}

// failed records seqs of a round trip that failed with err: unknown when
// the reply was lost, not done otherwise.
func (p *progress) failed(err error, seqs ...int64) {
	if errors.Is(err, ErrOutcomeUnknown) {
		p.unknown = append(p.unknown, seqs...)
	}
}

type progressKey struct{}

// WithProgress returns ctx carrying fn: a write made with it (revoke,
// delete, read, insert) calls fn after each round trip with how many of its
// seqs are handled so far and how many it has, so a long one can show
// progress.
func WithProgress(ctx context.Context, fn func(done, total int)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// write refuses in read-only mode, logs its intent, runs apply, invalidates
// the cache keys of seqs after the backend change, and logs the outcome.
// The intent line goes first so that a process killed part way still leaves
// the seqs it may have touched in the log. A write that stops part way has
// changed some slots: their keys are invalidated all the same, and the error
// and the outcome line say which seqs were done and which are unknown.
func (s *applying) write(ctx context.Context, action, cid string, seqs []int64, as string, apply func(*progress) error) (WriteResult, error) {
	res := WriteResult{Seqs: seqs}
	entry := AuditEntry{Time: time.Now().UTC(), Operator: s.operator, Action: action,
		Conversation: cid, Seqs: seqs, As: as, Admin: actingAsAdmin(ctx), Result: ResultIntent}
	if s.readOnly {
		entry.Result, entry.Error = ResultRefused, ErrReadOnly.Error()
		_ = s.audit.Append(entry)
		return res, ErrReadOnly
	}
	if err := s.audit.Append(entry); err != nil {
		return res, fmt.Errorf("%s not attempted, the audit log failed: %w", action, err)
	}
	p := &progress{total: len(seqs)}
	p.report, _ = ctx.Value(progressKey{}).(func(done, total int))
	err := apply(p)
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

// outcome names what a failed write did: some seqs done, only unknowns,
// refused outright (a concurrent writer won every seq), or nothing.
func outcome(p *progress, err error) string {
	var te *TargetError
	switch {
	case len(p.applied) > 0:
		return ResultPartial
	case len(p.unknown) > 0:
		return ResultUnknown
	case errors.As(err, &te):
		return ResultRefused
	}
	return ResultFailed
}

// partialError says, in one line, what a write that did not fully succeed
// did: the seqs done, the seqs whose outcome is unknown, then why.
func partialError(action string, p *progress, err error) error {
	if len(p.notes) == 0 {
		return partialErrorOf(action, p, err)
	}
	return fmt.Errorf("%w; %s", partialErrorOf(action, p, err), strings.Join(p.notes, "; "))
}

func partialErrorOf(action string, p *progress, err error) error {
	var te *TargetError
	refusedOnly := errors.As(err, &te) && len(p.unknown) == 0
	switch {
	case refusedOnly && len(p.applied) > 0:
		// Not the TargetError's own text: that says nothing was written.
		return &partialRefusal{te: te, msg: fmt.Sprintf("%s done for seq %s only; %s", action, FormatSeqs(p.applied), te.reasons())}
	case refusedOnly:
		return err
	case errors.Is(err, context.Canceled) && len(p.unknown) == 0:
		if len(p.applied) == 0 {
			return &interruptedError{fmt.Sprintf("%s interrupted, nothing written", action)}
		}
		return &interruptedError{fmt.Sprintf("%s interrupted, done for seq %s only", action, FormatSeqs(p.applied))}
	}
	var parts []string
	if len(p.applied) > 0 {
		parts = append(parts, "done for seq "+FormatSeqs(p.applied)+" only")
	}
	if len(p.unknown) > 0 {
		parts = append(parts, "seq "+FormatSeqs(p.unknown)+" unknown (the reply was lost: it may have been written)")
	}
	if len(parts) == 0 {
		return err
	}
	return fmt.Errorf("%s stopped part way, %s: %w", action, strings.Join(parts, ", "), err)
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
