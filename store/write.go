package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
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

// writeSlots is OpenIM's bucket state machine: for consecutive seqs from
// firstSeq, try $set on the existing bucket; when no bucket matches, build a
// new 100-slot bucket holding every following value that falls in it and
// insert it; a duplicate key means someone created it first, so step back and
// update instead. Replaying the same values leaves the same documents.
// With unlessSet the update carries the checked state in its filter (the
// field holds no document yet): a miss after the duplicate key tells the
// bucket exists and the field is set, ErrAlreadySet. Each seq stored is
// recorded in p as done, each seq of a round trip whose reply was lost as
// unknown; ctx is checked before every round trip.
func (s *Store) writeSlots(ctx context.Context, p *progress, cid string, firstSeq int64, field string, values []any, unlessSet bool) error {
	if firstSeq < 1 {
		return fmt.Errorf("seq %d: seqs start at 1", firstSeq)
	}
	tryUpdate, exists := true, false
	for i := 0; i < len(values); i++ {
		seq := firstSeq + int64(i)
		docID := DocIDForSeq(cid, seq)
		if err := ctx.Err(); err != nil {
			return err
		}
		if tryUpdate {
			s.trip()
			set := s.backend.SetSlotField
			if unlessSet {
				set = s.backend.SetSlotFieldIfUnset
			}
			matched, err := set(ctx, docID, SlotIndex(seq), field, values[i])
			if err != nil {
				p.failed(err, seq)
				return fmt.Errorf("seq %d: %w", seq, err)
			}
			if matched {
				p.done(seq)
				exists = false
				continue
			}
			if unlessSet && exists { // the bucket is there: the condition did not hold
				return fmt.Errorf("seq %d: %w", seq, ErrAlreadySet)
			}
		}
		doc := NewDoc(docID)
		end := i
		for ; end < len(values) && BucketIndex(firstSeq+int64(end)) == BucketIndex(seq); end++ {
			setSlotField(doc.Msgs[SlotIndex(firstSeq+int64(end))], field, values[end])
		}
		s.trip()
		err := s.backend.InsertBucket(ctx, doc)
		switch {
		case errors.Is(err, ErrDuplicateKey):
			tryUpdate, exists = true, true
			i-- // the bucket exists now: update this seq
		case err != nil:
			p.failed(err, seqRange(seq, end-i)...)
			return fmt.Errorf("seq %d: %w", seq, err)
		default:
			p.done(seqRange(seq, end-i)...)
			tryUpdate = false
			i = end - 1
		}
	}
	return nil
}

func setSlotField(slot *Slot, field string, value any) {
	switch field {
	case FieldMsg:
		slot.Msg = value.(*MsgData)
	case FieldRevoke:
		slot.Revoke = value.(*Revoke)
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
func (s *Store) InsertMessages(ctx context.Context, cid string, firstSeq int64, msgs []*MsgData) (WriteResult, error) {
	seqs := seqRange(firstSeq, len(msgs))
	return s.write(ctx, "insert", cid, seqs, "", func(p *progress) error {
		values := make([]any, len(msgs))
		for i, m := range msgs {
			m.Seq = firstSeq + int64(i)
			values[i] = m
		}
		if err := s.writeSlots(ctx, p, cid, firstSeq, FieldMsg, values, false); err != nil {
			return err
		}
		if len(msgs) == 0 {
			return nil
		}
		s.trip()
		return s.backend.RaiseMaxSeq(ctx, cid, firstSeq+int64(len(msgs))-1)
	})
}

// Revoke marks each of seqs as revoked by rev, through the state machine
// (a missing bucket is created, as the server does). Each update carries
// "not revoked yet" in its filter: a seq another writer revoked first is
// left alone and reported already revoked, the others are still done.
func (s *Store) Revoke(ctx context.Context, cid string, seqs []int64, rev Revoke) (WriteResult, error) {
	if rev.Time == 0 {
		rev.Time = time.Now().UnixMilli()
	}
	return s.write(ctx, "revoke", cid, seqs, rev.UserID, func(p *progress) error {
		refused := &TargetError{Action: ActionRevoke, Cid: cid, UserID: rev.UserID}
		for _, seq := range seqs {
			r := rev
			err := s.writeSlots(ctx, p, cid, seq, FieldRevoke, []any{&r}, true)
			if errors.Is(err, ErrAlreadySet) {
				refused.add("already revoked (by another writer meanwhile)", seq)
				continue
			}
			if err != nil {
				return err
			}
		}
		if len(refused.Refused) > 0 {
			return refused
		}
		return nil
	})
}

// DeleteForMe hides each of seqs from uid only ($addToSet on del_list).
func (s *Store) DeleteForMe(ctx context.Context, cid string, seqs []int64, uid string) (WriteResult, error) {
	return s.write(ctx, "delete", cid, seqs, uid, func(p *progress) error {
		for _, seq := range seqs {
			if err := ctx.Err(); err != nil {
				return err
			}
			s.trip()
			if _, err := s.backend.AddToDelList(ctx, DocIDForSeq(cid, seq), SlotIndex(seq), []string{uid}); err != nil {
				p.failed(err, seq)
				return fmt.Errorf("seq %d: %w", seq, err)
			}
			p.done(seq)
		}
		return nil
	})
}

// MarkRead marks seqs read by reader. In single chats each slot not sent by
// the reader gets is_read; in every chat the reader's read seq is raised to
// the highest of seqs, never lowered.
func (s *Store) MarkRead(ctx context.Context, cid string, seqs []int64, reader string) (WriteResult, error) {
	return s.write(ctx, "read", cid, seqs, reader, func(p *progress) error {
		if ConversationTypeOf(cid) == SessionSingle {
			for _, seq := range seqs {
				if err := ctx.Err(); err != nil {
					return err
				}
				s.trip()
				if _, err := s.backend.MarkSlotRead(ctx, DocIDForSeq(cid, seq), SlotIndex(seq), reader); err != nil {
					p.failed(err, seq)
					return fmt.Errorf("seq %d: %w", seq, err)
				}
				p.done(seq)
			}
		}
		if len(seqs) == 0 {
			return nil
		}
		top := slices.Max(seqs)
		s.trip()
		if err := s.backend.RaiseReadSeq(ctx, reader, cid, top); err != nil {
			return err
		}
		if s.cache != nil {
			err := s.cache.RaiseReadSeq(ctx, cid, reader, top)
			s.cacheResult(err)
			if err != nil {
				return &staleCacheError{fmt.Errorf("SEQ_USER_READ:%s:%s not raised: %w", cid, reader, err)}
			}
		}
		return nil
	})
}

// partialRefusal is a write done for some seqs and refused for others; it
// unwraps to the TargetError naming the refused ones.
type partialRefusal struct {
	te  *TargetError
	msg string
}

func (e *partialRefusal) Error() string { return e.msg }
func (e *partialRefusal) Unwrap() error { return e.te }

// staleCacheError marks a failure that happened after the backend write stood.
type staleCacheError struct{ err error }

func (e *staleCacheError) Error() string { return e.err.Error() }
func (e *staleCacheError) Unwrap() error { return e.err }

// progress records the seqs a write has changed so far, and those whose
// round trip lost its reply.
type progress struct{ applied, unknown []int64 }

func (p *progress) done(seqs ...int64) { p.applied = append(p.applied, seqs...) }

// failed records seqs of a round trip that failed with err: unknown when
// the reply was lost, not done otherwise.
func (p *progress) failed(err error, seqs ...int64) {
	if errors.Is(err, ErrOutcomeUnknown) {
		p.unknown = append(p.unknown, seqs...)
	}
}

// write refuses in read-only mode, logs its intent, runs apply, invalidates
// the cache keys of seqs after the backend change, and logs the outcome.
// The intent line goes first so that a process killed part way still leaves
// the seqs it may have touched in the log. A write that stops part way has
// changed some slots: their keys are invalidated all the same, and the error
// and the outcome line say which seqs were done and which are unknown.
func (s *Store) write(ctx context.Context, action, cid string, seqs []int64, as string, apply func(*progress) error) (WriteResult, error) {
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
	p := &progress{}
	err := apply(p)
	var stale *staleCacheError
	if errors.As(err, &stale) {
		res.StaleCache, err = stale.err, nil
	}
	res.Applied, res.Unknown = p.applied, p.unknown
	if err == nil || len(p.applied) > 0 || len(p.unknown) > 0 {
		// Tag every key the write meant to touch: a key it did not reach
		// costs a cache miss, one it did and kept would serve the old slot.
		s.invalidate(ctx, cid, seqs, &res)
	}
	entry.Time, entry.Result = time.Now().UTC(), ResultOK
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
	var te *TargetError
	refusedOnly := errors.As(err, &te) && len(p.unknown) == 0
	switch {
	case refusedOnly && len(p.applied) > 0:
		// Not the TargetError's own text: that says nothing was written.
		why := make([]string, len(te.Refused))
		for i, r := range te.Refused {
			why[i] = "seq " + FormatSeqs(r.Seqs) + ": " + r.Reason
		}
		return &partialRefusal{te: te, msg: fmt.Sprintf("%s done for seq %s only; %s", action, FormatSeqs(p.applied), strings.Join(why, "; "))}
	case refusedOnly:
		return err
	case errors.Is(err, context.Canceled) && len(p.unknown) == 0:
		if len(p.applied) == 0 {
			return fmt.Errorf("%s interrupted, nothing written", action)
		}
		return fmt.Errorf("%s interrupted, done for seq %s only", action, FormatSeqs(p.applied))
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
func (s *Store) invalidate(ctx context.Context, cid string, seqs []int64, res *WriteResult) {
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

func seqRange(first int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = first + int64(i)
	}
	return out
}
