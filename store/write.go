package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Slot fields the state machine writes.
const (
	FieldMsg    = "msg"
	FieldRevoke = "revoke"
)

// writeSlots is OpenIM's bucket state machine: for consecutive seqs from
// firstSeq, try $set on the existing bucket; when no bucket matches, build a
// new 100-slot bucket holding every following value that falls in it and
// insert it; a duplicate key means someone created it first, so step back and
// update instead. Replaying the same values leaves the same documents.
// It returns how many leading values are stored, all of them unless err.
func (s *Store) writeSlots(ctx context.Context, cid string, firstSeq int64, field string, values []any) (int, error) {
	if firstSeq < 1 {
		return 0, fmt.Errorf("seq %d: seqs start at 1", firstSeq)
	}
	tryUpdate := true
	for i := 0; i < len(values); i++ {
		seq := firstSeq + int64(i)
		docID := DocIDForSeq(cid, seq)
		if tryUpdate {
			s.trip()
			matched, err := s.backend.SetSlotField(ctx, docID, SlotIndex(seq), field, values[i])
			if err != nil {
				return i, fmt.Errorf("seq %d: %w", seq, err)
			}
			if matched {
				continue
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
			tryUpdate = true
			i-- // the bucket exists now: update this seq
		case err != nil:
			return i, fmt.Errorf("seq %d: %w", seq, err)
		default:
			tryUpdate = false
			i = end - 1
		}
	}
	return len(values), nil
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
		n, err := s.writeSlots(ctx, cid, firstSeq, FieldMsg, values)
		p.done(seqs[:n]...)
		if err != nil {
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
// (a missing bucket is created, as the server does).
func (s *Store) Revoke(ctx context.Context, cid string, seqs []int64, rev Revoke) (WriteResult, error) {
	if rev.Time == 0 {
		rev.Time = time.Now().UnixMilli()
	}
	return s.write(ctx, "revoke", cid, seqs, rev.UserID, func(p *progress) error {
		for _, seq := range seqs {
			r := rev
			if _, err := s.writeSlots(ctx, cid, seq, FieldRevoke, []any{&r}); err != nil {
				return err
			}
			p.done(seq)
		}
		return nil
	})
}

// DeleteForMe hides each of seqs from uid only ($addToSet on del_list).
func (s *Store) DeleteForMe(ctx context.Context, cid string, seqs []int64, uid string) (WriteResult, error) {
	return s.write(ctx, "delete", cid, seqs, uid, func(p *progress) error {
		for _, seq := range seqs {
			s.trip()
			if _, err := s.backend.AddToDelList(ctx, DocIDForSeq(cid, seq), SlotIndex(seq), []string{uid}); err != nil {
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
				s.trip()
				if _, err := s.backend.MarkSlotRead(ctx, DocIDForSeq(cid, seq), SlotIndex(seq), reader); err != nil {
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

// staleCacheError marks a failure that happened after the backend write stood.
type staleCacheError struct{ err error }

func (e *staleCacheError) Error() string { return e.err.Error() }
func (e *staleCacheError) Unwrap() error { return e.err }

// progress records the seqs a write has changed so far.
type progress struct{ applied []int64 }

func (p *progress) done(seqs ...int64) { p.applied = append(p.applied, seqs...) }

// write refuses in read-only mode, runs apply, invalidates the cache keys of
// seqs after the backend change, and appends the outcome to the audit log.
// A write that stops part way has changed some slots: their keys are
// invalidated all the same, and the error and the audit line say which seqs
// were done.
func (s *Store) write(ctx context.Context, action, cid string, seqs []int64, as string, apply func(*progress) error) (WriteResult, error) {
	res := WriteResult{Seqs: seqs}
	entry := AuditEntry{Time: time.Now().UTC(), Operator: s.operator, Action: action,
		Conversation: cid, Seqs: seqs, As: as, Admin: actingAsAdmin(ctx), Result: "ok"}
	if s.readOnly {
		entry.Result, entry.Error = "refused", ErrReadOnly.Error()
		_ = s.audit.Append(entry)
		return res, ErrReadOnly
	}
	p := &progress{}
	err := apply(p)
	var stale *staleCacheError
	if errors.As(err, &stale) {
		res.StaleCache, err = stale.err, nil
	}
	res.Applied = p.applied
	if err == nil || len(p.applied) > 0 {
		// Tag every key the write meant to touch: a key it did not reach
		// costs a cache miss, one it did and kept would serve the old slot.
		s.invalidate(ctx, cid, seqs, &res)
	}
	if err != nil {
		entry.Result = "failed"
		if len(p.applied) > 0 {
			entry.Result, entry.Applied = "partial", p.applied
			err = fmt.Errorf("%s stopped part way, done for seq %s only: %w", action, FormatSeqs(p.applied), err)
		}
		entry.Error = err.Error()
		if res.StaleCache != nil {
			entry.Error += "; " + res.StaleCache.Error()
		}
		_ = s.audit.Append(entry)
		return res, err
	}
	if res.StaleCache != nil {
		entry.Result, entry.Error = "ok-cache-stale", res.StaleCache.Error()
	}
	if aerr := s.audit.Append(entry); aerr != nil {
		return res, fmt.Errorf("write done but audit log failed: %w", aerr)
	}
	return res, nil
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
