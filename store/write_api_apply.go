package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// settlePoll is the pause between two re-reads of the touched slots.
const settlePoll = 100 * time.Millisecond

// WritesViaAPI reports whether Do's writes go through the server's API.
func (s *applying) WritesViaAPI() bool { return s.api != nil }

// APIWaiting says what the next write through the API waits on before its
// first request (a command that prints the server's secret, the first
// time), for a note while it does; "" when nothing.
func (s *applying) APIWaiting() string {
	if w, ok := s.api.(interface{ Waiting() string }); ok {
		return w.Waiting()
	}
	return ""
}

// applyAPI makes req through the server's API, call by call, stopping at
// the first refusal or lost answer, whatever chatlens predicted (pred, told
// first to a WithPrediction hook): the server decides. Then it re-reads
// the slots the server accepted until the store shows them or the settle
// time is up. The audit log gets an intent line first and the outcome
// after, both "via": "api" with the write's operationID, the outcome with
// both verdicts; a call the server accepted where chatlens expected a
// refusal is named in APIDone.Unexpected.
func (s *applying) applyAPI(ctx context.Context, req WriteRequest, pred Prediction, ncid string) (Done, error) {
	seqs := slices.Sorted(slices.Values(req.Seqs))
	op := newOperationID()
	done := Done{WriteResult: WriteResult{Seqs: req.Seqs}, API: &APIDone{OperationID: op, Prediction: pred}}
	entry := AuditEntry{Time: time.Now().UTC(), Operator: s.operator, Action: req.Action, Conversation: req.Cid,
		Seqs: req.Seqs, As: req.By, Admin: req.Admin, Via: ViaAPI, OperationID: op, Result: ResultIntent}
	if err := s.audit.Append(entry); err != nil {
		return done, fmt.Errorf("%s not attempted, the audit log failed: %w", req.Action, err)
	}
	// The write's notifications will come after the notification
	// conversation's messages of now.
	done.API.NoticeCid = ncid
	var noticeFrom int64
	if ncid != "" {
		noticeFrom, done.API.NoticeErr = s.noticeEnd(ctx, req.By, ncid)
	}
	if tell, _ := ctx.Value(predictionKey{}).(func(Prediction)); tell != nil {
		tell(pred)
	}
	report, _ := ctx.Value(progressKey{}).(func(done, total int))
	var accepted, unknown, notSent, unexpected []int64
	var stop error
	calls := apiCalls(req, seqs)
	for i, c := range calls {
		if err := ctx.Err(); err != nil {
			stop, notSent = err, unsent(calls[i:])
			break
		}
		c.OperationID = op + "-" + strconv.Itoa(i+1)
		a := s.api.Send(ctx, c)
		switch {
		case a.Err != nil && a.Sent:
			unknown = c.Seqs
			stop = fmt.Errorf("no answer from the server: %w", a.Err)
		case a.Err != nil:
			stop, notSent = fmt.Errorf("not sent: %w", a.Err), c.Seqs
		case a.Code != 0:
			stop = &ServerRefusal{Action: req.Action, Cid: req.Cid, Seqs: c.Seqs, Path: a.Path, Code: a.Code, Msg: a.Msg, Dlt: a.Dlt,
				Expected: pred.refuses(c.Seqs)}
		default:
			accepted = append(accepted, c.Seqs...)
			if pred.refuses(c.Seqs) {
				unexpected = append(unexpected, c.Seqs...)
			}
		}
		if stop != nil {
			notSent = append(notSent, unsent(calls[i+1:])...)
			break
		}
		if report != nil {
			report(len(accepted), len(seqs))
		}
	}
	unconfirmed, rev, verr := s.settle(ctx, req, accepted)
	if verr != nil {
		unconfirmed = accepted // the store could not be re-read: none is shown
	}
	done.Applied, done.Unknown, done.API.Unconfirmed, done.Revoke = accepted, unknown, unconfirmed, rev
	done.API.Unexpected = unexpected
	if len(accepted) > 0 {
		a := done.API
		a.Unnoticed = accepted
		if ncid != "" && a.NoticeErr == nil {
			a.Notices, a.Unnoticed, a.NoticeErr = s.findNotices(ctx, req, ncid, noticeFrom, accepted)
		}
	}
	entry.Time, entry.Result, entry.Unconfirmed = time.Now().UTC(), ResultOK, unconfirmed
	entry.Unnotified = done.API.Unnoticed
	entry.Verdicts = verdicts(pred, stop, unexpected)
	if len(unconfirmed) > 0 {
		entry.Result = ResultAccepted
	}
	err := apiOutcome(req.Action, apiSeqs{accepted, unconfirmed, unknown, notSent}, stop)
	if err != nil {
		entry.Result, entry.Applied, entry.Unknown, entry.Error = ResultFailed, accepted, unknown, err.Error()
		var refusal *ServerRefusal
		switch {
		case len(accepted) > 0:
			entry.Result = ResultPartial
		case len(unknown) > 0:
			entry.Result = ResultUnknown
		case errors.As(stop, &refusal):
			entry.Result = ResultRefused
		}
	}
	if verr != nil && err == nil {
		// The server's answer stands; only the re-read failed.
		entry.Result = ResultAccepted
		entry.Error = "the store could not be re-read: " + verr.Error()
	}
	if aerr := s.audit.Append(entry); aerr != nil && err == nil {
		return done, fmt.Errorf("%s done through the API but the audit log failed: %w", req.Action, aerr)
	}
	return done, err
}

// verdicts are the two verdicts of a write through the API for its audit
// line: chatlens's prediction and the server's answer, which is a refusal
// when one stopped the write, else acceptance of every call answered.
func verdicts(pred Prediction, stop error, unexpected []int64) *Verdicts {
	v := &Verdicts{Chatlens: "allowed", Server: "accepted"}
	if pred.Refusal != "" {
		v.Chatlens = "refused: " + pred.Refusal
	}
	var refusal *ServerRefusal
	switch {
	case errors.As(stop, &refusal):
		v.Server = "refused: " + refusal.Verdict()
		v.Differ = !refusal.Expected
	case errors.Is(stop, context.Canceled):
		v.Server = "interrupted"
	case stop != nil:
		v.Server = "no answer"
	}
	if len(unexpected) > 0 {
		v.Differ = true
	}
	return v
}

// apiSeqs are a write's seqs by what became of them: accepted by the
// server (unconfirmed: of those, the ones the store does not show), lost in
// flight, never sent after the call that stopped the write.
type apiSeqs struct{ accepted, unconfirmed, unknown, notSent []int64 }

// unsent are the seqs of calls never made.
func unsent(calls []APICall) []int64 {
	var seqs []int64
	for _, c := range calls {
		seqs = append(seqs, c.Seqs...)
	}
	return seqs
}

// apiOutcome is the one line a write through the API that did not fully
// succeed ends with: what the store shows done, what the server accepted
// that it does not show, what is unknown, why it stopped, and what was
// never sent. A seq is "done" only once the store shows it.
func apiOutcome(action string, s apiSeqs, stop error) error {
	if stop == nil {
		return nil
	}
	var parts []string
	if shown := without(s.accepted, s.unconfirmed); len(shown) > 0 {
		parts = append(parts, action+" done for seq "+FormatSeqs(shown)+" only")
	}
	if len(s.unconfirmed) > 0 {
		parts = append(parts, action+" of seq "+FormatSeqs(s.unconfirmed)+" accepted by the server, not shown in the store yet")
	}
	if len(s.unknown) > 0 {
		parts = append(parts, action+" of seq "+FormatSeqs(s.unknown)+" unknown (the request was sent and no answer came: it may have been applied)")
	}
	var refusal *ServerRefusal
	isRefusal := errors.As(stop, &refusal)
	if len(parts) == 0 && !isRefusal {
		return fmt.Errorf("%s not done: %w", action, stop) // nothing reached the server
	}
	err := stop
	if len(parts) > 0 {
		err = fmt.Errorf("%s; %w", strings.Join(parts, "; "), stop)
	}
	if len(s.notSent) > 0 {
		err = fmt.Errorf("%w; not sent: %s", err, FormatSeqs(s.notSent))
	}
	return err
}

// settle re-reads the slots of seqs until the store shows the write on all
// of them or DefaultAPISettle (Options.APISettle) is up; it returns those
// it does not show and, for a revoke, the record the server wrote.
func (s *applying) settle(ctx context.Context, req WriteRequest, seqs []int64) ([]int64, *bucket.Revoke, error) {
	if len(seqs) == 0 {
		return nil, nil, nil
	}
	ctx = context.WithoutCancel(ctx) // what the server did stands: say what the store shows
	deadline := time.Now().Add(s.apiSettle)
	for {
		missing, rev, err := s.unshown(ctx, req, seqs)
		if err != nil || len(missing) == 0 || !time.Now().Before(deadline) {
			return missing, rev, err
		}
		time.Sleep(settlePoll)
	}
}

// unshown reads the stored slots of seqs (not the cache: the server
// invalidates it itself) and returns those that do not show req yet.
func (s *applying) unshown(ctx context.Context, req WriteRequest, seqs []int64) ([]int64, *bucket.Revoke, error) {
	slots, err := s.storedSlots(ctx, req.Cid, seqs, nil)
	if err != nil {
		return nil, nil, err
	}
	var missing []int64
	var rev *bucket.Revoke
	for _, seq := range seqs {
		sl := slots[seq].Slot
		shown := true
		switch req.Action {
		case ActionRevoke:
			shown = sl != nil && sl.Revoke != nil
			if shown && rev == nil {
				rev = sl.Revoke
			}
		case ActionDelete:
			shown = sl != nil && slices.Contains(sl.DelList, req.By)
		case ActionRead: // as_read.go: is_read on each slot not sent by the reader
			shown = sl == nil || sl.Msg == nil || sl.Msg.SendID == req.By || sl.IsRead
		}
		if !shown {
			missing = append(missing, seq)
		}
	}
	if req.Action == ActionRead && len(missing) == 0 {
		last := seqs[len(seqs)-1]
		ws, err := s.Windows(ctx, req.By, []string{req.Cid}, nil)
		if err != nil {
			return nil, nil, err
		}
		if ws[req.Cid].ReadSeq < last {
			missing = append(missing, last) // the read seq is not raised yet
		}
	}
	return missing, rev, nil
}

// newOperationID names one write for the server's logs and the audit log.
func newOperationID() string {
	return fmt.Sprintf("chatlens-%d-%04x", time.Now().UnixMilli(), rand.IntN(1<<16))
}

// noticeEnd is where ncid's messages end now, before the write is sent:
// its notifications come after it.
func (s *applying) noticeEnd(ctx context.Context, by, ncid string) (int64, error) {
	ws, err := s.Windows(ctx, by, []string{ncid}, nil)
	if err != nil {
		return 0, err
	}
	return ws[ncid].EndSeq, nil
}

// findNotices looks in ncid after seq from for the notifications of req's
// seqs, re-reading until each has one or the settle time is up; it returns
// those found and the seqs none was found for.
func (s *applying) findNotices(ctx context.Context, req WriteRequest, ncid string, from int64, seqs []int64) ([]Notice, []int64, error) {
	ctx = context.WithoutCancel(ctx) // what the server did stands: say what it sent
	deadline := time.Now().Add(s.apiSettle)
	for {
		found, missing, err := s.notices(ctx, req, ncid, from, seqs)
		if err != nil || len(missing) == 0 || !time.Now().Before(deadline) {
			return found, missing, err
		}
		time.Sleep(settlePoll)
	}
}
