package store

import (
	"context"
	"errors"
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// Planning a write: what Do would do with a request, from reads alone.
// The checks of each target and the revoke rule are write_plan_checks.go's;
// the plan in words, as the dialog and --dry-run show it, is
// write_plan_lines.go's.

// Plan is what Do would do with a request, read from the store as it is
// now: making one writes, sends and audits nothing. In storage a plan with
// a refusal writes nothing; through the server's API it is sent all the
// same, its refusal being chatlens's prediction of the server's answer.
type Plan struct {
	// Request is the write as Do makes it: Admin is set for the
	// deployment's app admins too.
	Request WriteRequest
	ViaAPI  bool // the write goes through the server's API
	// Write are the seqs Do writes (in storage) or sends (through the
	// API); none when a refusal stops a write in storage.
	Write []int64
	// Refused are the seqs refused and why: in storage every refusal,
	// chatlens's own (StorageOnly) included; through the API the refusals
	// chatlens expects of the server.
	Refused []RefusedSeqs
	// Refusal is the one line Do refuses the write with in storage (a
	// *TargetError, *UnknownUserError, NoSuchError or ErrReadOnly);
	// through the API the server's refusal chatlens expects. nil: none.
	Refusal error
	// Notes say what the write does to the seqs that are not plain
	// messages in the user's window, and to a read seq it leaves.
	Notes []SeqNote
	// ReadSeq is, for a mark read, the user's read seq before and after;
	// nil for other writes, or when the window was not read.
	ReadSeq *ReadSeqMove
	// Revoke is the record a revoke in storage writes.
	Revoke *bucket.Revoke
	// For a revoke of one message: who may revoke it, in words, and the
	// rule that lets the user ("" when it refuses).
	RevokeWho, RevokeRule string
	// Through the API: the server's expected answer; the notification
	// conversation it tells devices in ("" when none) and the
	// notifications it is expected to send there for what it accepts; what
	// asking the user's token does to their own sessions ("" when nothing).
	Prediction  *Prediction
	NoticeCid   string
	Notices     []ExpectedNotice
	SessionNote string
}

// ReadSeqMove is a read seq before a mark read and after it.
type ReadSeqMove struct{ Before, After int64 }

// ExpectedNotice is a notification the server is expected to send after a
// write through its API: its content type and the seqs of the write it is
// about. A prediction: the server sends it from a queue, and a send can
// fail.
type ExpectedNotice struct {
	Type  int32
	About []int64
}

// Plan checks req as OpenIM would before it writes — the user is one the
// store knows, each target is one the server writes (a revoke's a message
// in the user's pull window), and a revoke follows openimrules.RevokeRule —
// and says what Do would do, reading what Do reads before it writes: the
// user, the revoker's group, the user's window and the target slots. An
// error is a read that failed; a refusal is in the plan.
func (s *planning) Plan(ctx context.Context, req WriteRequest) (Plan, error) {
	req.Admin = req.Admin || s.IsIMAdmin(req.By)
	p := Plan{Request: req, ViaAPI: s.api != nil}
	if s.readOnly {
		p.refuse(ErrReadOnly)
		return p, nil
	}
	uc, err := s.CheckUser(ctx, req.By, req.Cid)
	if err != nil {
		return Plan{}, err
	}
	if uc.User == nil && !p.ViaAPI {
		// Not in the user collection: an ID nothing stored names is a typo
		// more likely than a user, refused with the nearest names. Through
		// the API the server refuses to issue such a user's token.
		if err := s.CheckIDs(ctx, "", req.By); err != nil {
			if !isRefusal(err) {
				return Plan{}, err
			}
			p.refuse(err)
			return p, nil
		}
	}
	var refusal error
	if !uc.Known {
		refusal = &UnknownUserError{Action: req.Action, Cid: req.Cid, UserID: req.By, Why: uc.Why}
		if !p.ViaAPI {
			p.refuse(refusal)
			return p, nil
		}
	}
	pl := planner{s: s}
	if req.Action == ActionRead && len(req.Seqs) == 0 && req.UpTo > 0 {
		// The seqs are the user's unread ones up to UpTo, as stored now.
		if p.Request, err = pl.upTo(ctx, req); err != nil {
			if !isRefusal(err) {
				return Plan{}, err
			}
			p.refuse(err)
			return p, nil
		}
		req = p.Request
	}
	var judge func(bucket.StoredSlot) string
	var rp *revokePlan
	if req.Action == ActionRevoke {
		if rp, err = pl.planRevoke(ctx, req, uc.User); err != nil {
			return Plan{}, err
		}
		judge = rp.judge
	}
	c, err := pl.checkTargets(ctx, req.Cid, req.By, req.Seqs, req.Action, judge)
	var te *TargetError
	switch {
	case err == nil:
	case !errors.As(err, &te):
		return Plan{}, err
	case p.ViaAPI:
		if refusal == nil {
			refusal = te.serverRefusals()
		}
	default:
		refusal = te
	}
	if rp != nil {
		rev := rp.record()
		p.Revoke = &rev
		if len(req.Seqs) == 1 {
			p.RevokeWho, p.RevokeRule = rp.who, rp.rule
		}
	}
	if req.Action == ActionRead && c.w != nil {
		p.ReadSeq = &ReadSeqMove{Before: c.w.ReadSeq, After: c.w.ReadSeq}
	}
	if refusal != nil {
		p.refuse(refusal)
	}
	if p.ViaAPI {
		pred := predictionOf(req, refusal)
		p.Prediction = &pred
		p.Write = req.Seqs // sent whatever chatlens expects: the server decides
		p.NoticeCid = noticeConversation(req, c.slots)
		p.Notices = expectedNotices(req, pred, p.NoticeCid)
		p.SessionNote = s.api.SessionNote(req.By, req.Admin)
	} else if refusal != nil {
		return p, nil
	} else {
		p.Write = req.Seqs
	}
	p.Notes = c.doneNotes(req)
	if p.ReadSeq != nil && refusal == nil && len(req.Seqs) > 0 {
		// as_read.go MarkMsgsAsRead raises it to the last seq, never lowers it.
		p.ReadSeq.After = max(p.ReadSeq.Before, slices.Max(req.Seqs))
	}
	return p, nil
}

// refuse records why the plan is refused: every seq of the request for a
// refusal of the user or of the store, else the seqs the refusal names.
func (p *Plan) refuse(err error) {
	p.Refusal = err
	var te *TargetError
	if errors.As(err, &te) {
		p.Refused = te.Refused
		return
	}
	p.Refused = []RefusedSeqs{{Reason: err.Error(), Seqs: p.Request.Seqs}}
}

// expectedNotices are the notifications of the calls of req the server is
// expected to accept: a revoke's one per seq, a delete's or a mark read's
// one for the call; none without a notification conversation.
func expectedNotices(req WriteRequest, pred Prediction, ncid string) []ExpectedNotice {
	if ncid == "" {
		return nil
	}
	var out []ExpectedNotice
	for _, c := range apiCalls(req, slices.Sorted(slices.Values(req.Seqs))) {
		if !pred.refuses(c.Seqs) {
			out = append(out, ExpectedNotice{Type: noticeType(req.Action), About: c.Seqs})
		}
	}
	return out
}

// isRefusal tells a refusal of a write (the store or the server would
// refuse it) from a check that failed.
func isRefusal(err error) bool {
	var te *TargetError
	var ue *UnknownUserError
	var ns NoSuchError
	return errors.As(err, &te) || errors.As(err, &ue) || errors.As(err, &ns) || errors.Is(err, ErrReadOnly)
}
