package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// Applying a write, the top of its path: Ask (Plan, and the audit of a
// refusal), Apply (a plan made on the backend, or sent through the API)
// and Do (both); then each write on the backend (insert, revoke, delete
// for me, mark read), which write_apply_state.go frames and writes bucket
// by bucket. Each step here calls only downward: the plan, the state
// machine, the outcome's words, the reads, the base.

// Do makes the write its Plan says, so the checks are those a dry run
// shows: in storage a refusal writes nothing, is one line (NoSuchError,
// *UnknownUserError or *TargetError) and is audited "refused". Through
// the server's API the server decides: the plan's refusal is chatlens's
// prediction of its answer (see applyAPI), and the write is sent whatever
// it says. A read-only store refuses in the write itself, reading nothing
// first.
func (s *writePath) Do(ctx context.Context, req WriteRequest) (Done, error) {
	if s.readOnly {
		// An app admin acting as themselves needs no --admin: the server
		// passes their own token as it passes the admin token.
		req.Admin = req.Admin || s.IsIMAdmin(req.By)
		return s.apply(adminContext(ctx, req), req, bucket.Revoke{UserID: req.By})
	}
	p, err := s.Ask(ctx, req)
	if err != nil {
		return Done{WriteResult: WriteResult{Seqs: req.Seqs}}, err
	}
	return s.Apply(ctx, p)
}

// Ask is Plan for a write an operator will be shown before it is made
// (the UI's dialog, Do): the plan's refusal in storage, or a plan that
// could not be read, is audited here, so every refused write is in the
// audit log whoever asked. A dry run plans with Plan and audits nothing.
func (s *writePath) Ask(ctx context.Context, req WriteRequest) (Plan, error) {
	p, err := s.Plan(ctx, req)
	switch {
	case err != nil: // the check could not read (a lock timeout, a server gone): audited as failed
		r := req
		r.Admin = r.Admin || s.IsIMAdmin(r.By)
		return p, s.auditRefusal(r.Action, r.Cid, r.By, r.Seqs, r.Admin, err)
	case p.Refusal != nil && !p.ViaAPI:
		r := p.Request
		// The refusal as audited: it says so if the log failed too.
		p.Refusal = s.auditRefusal(r.Action, r.Cid, r.By, r.Seqs, r.Admin, p.Refusal)
	}
	return p, nil
}

// auditRefusal logs a write that was refused, or whose check failed,
// before anything was written: action by as on seqs of cid, and why. It
// returns reason; if the log itself fails, the error says so too. A
// refusal (a *TargetError, an *UnknownUserError, a NoSuchError,
// ErrReadOnly) is logged "refused", any other failure of the check
// "failed".
func (s *writePath) auditRefusal(action, cid, as string, seqs []int64, admin bool, reason error) error {
	if reason == nil {
		return nil
	}
	entry := AuditEntry{Time: time.Now().UTC(), Operator: s.operator, Action: action,
		Conversation: cid, Seqs: seqs, As: as, Admin: admin, Result: ResultFailed, Error: reason.Error()}
	if isRefusal(reason) {
		entry.Result = ResultRefused
	}
	if err := s.audit.Append(entry); err != nil {
		return fmt.Errorf("%w (and the audit log failed: %v)", reason, err)
	}
	return reason
}

// Apply makes the write p plans, deciding nothing again: p comes from Ask
// (which audited its refusal), and a plan refused in storage writes
// nothing and returns its refusal. The state machine still refuses a slot
// that changed since in a way it cannot write.
func (s *writePath) Apply(ctx context.Context, p Plan) (Done, error) {
	req := p.Request
	ctx = adminContext(ctx, req)
	var done Done
	var err error
	switch {
	case p.ViaAPI:
		done, err = s.applyAPI(ctx, req, *p.Prediction, p.NoticeCid)
	case p.Refusal != nil:
		return Done{WriteResult: WriteResult{Seqs: req.Seqs}}, p.Refusal
	default:
		rev := bucket.Revoke{UserID: req.By}
		if p.Revoke != nil {
			rev = *p.Revoke
		}
		done, err = s.apply(ctx, req, rev)
	}
	if err == nil {
		done.Notes = p.Notes
	}
	return done, err
}

func (s *applying) apply(ctx context.Context, req WriteRequest, rev bucket.Revoke) (Done, error) {
	var res WriteResult
	var err error
	switch req.Action {
	case ActionRevoke:
		res, err = s.Revoke(ctx, req.Cid, req.Seqs, rev)
		return Done{WriteResult: res, Revoke: &rev}, err
	case ActionDelete:
		res, err = s.DeleteForMe(ctx, req.Cid, req.Seqs, req.By)
	case ActionRead:
		res, err = s.MarkRead(ctx, req.Cid, req.Seqs, req.By)
	default:
		err = fmt.Errorf("unknown action %q", req.Action)
	}
	return Done{WriteResult: res}, err
}

// InsertMessages stores msgs at consecutive seqs from firstSeq (each msg's
// Seq is set to its position) and raises seq.max_seq.
func (s *applying) InsertMessages(ctx context.Context, cid string, firstSeq int64, msgs []*bucket.MsgData) (WriteResult, error) {
	seqs := seqRange(firstSeq, len(msgs))
	w, err := s.begin(ctx, "insert", cid, seqs, "")
	if err != nil {
		return WriteResult{Seqs: seqs}, err
	}
	return s.finish(ctx, w, s.insertSlots(ctx, w.p, cid, seqs, firstSeq, msgs))
}

// insertSlots writes the slots of InsertMessages and raises seq.max_seq.
func (s *applying) insertSlots(ctx context.Context, p *progress, cid string, seqs []int64, firstSeq int64, msgs []*bucket.MsgData) error {
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
	w, err := s.begin(ctx, "revoke", cid, seqs, rev.UserID)
	if err != nil {
		return WriteResult{Seqs: seqs}, err
	}
	return s.finish(ctx, w, s.revokeSlots(ctx, w.p, cid, seqs, rev))
}

// revokeSlots writes the revoke records of Revoke; a seq revoked
// meanwhile is refused.
func (s *applying) revokeSlots(ctx context.Context, p *progress, cid string, seqs []int64, rev bucket.Revoke) error {
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
}

// DeleteForMe hides each of seqs from uid only ($addToSet on del_list),
// one request per bucket carrying one update per slot, as OpenIM's
// DeleteUserMsgsBySeqs (pkg/common/storage/controller/msg.go) sends one
// PushUnique per seq.
func (s *applying) DeleteForMe(ctx context.Context, cid string, seqs []int64, uid string) (WriteResult, error) {
	w, err := s.begin(ctx, "delete", cid, seqs, uid)
	if err != nil {
		return WriteResult{Seqs: seqs}, err
	}
	return s.finish(ctx, w, s.deleteSlots(ctx, w.p, cid, seqs, uid))
}

// deleteSlots adds uid to the del_lists of DeleteForMe's slots.
func (s *applying) deleteSlots(ctx context.Context, p *progress, cid string, seqs []int64, uid string) error {
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
	w, err := s.begin(ctx, "read", cid, seqs, reader)
	if err != nil {
		return WriteResult{Seqs: seqs}, err
	}
	return s.finish(ctx, w, s.markSlots(ctx, w.p, cid, seqs, reader))
}

// markSlots marks the slots of MarkRead and raises the read seq.
func (s *applying) markSlots(ctx context.Context, p *progress, cid string, seqs []int64, reader string) error {
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
