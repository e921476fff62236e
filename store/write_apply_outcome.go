package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// What a write did, in words: its result (Done), its progress round trip
// by round trip, and the one-line error of a write that stopped part way.

// Done is what Do did: the write's result and, for a revoke, the record
// written; Notes say what was done to the seqs that were not plain
// messages in the user's window (before it, a physically deleted one), and
// to the read seq when a mark read leaves it.
type Done struct {
	WriteResult
	Revoke *bucket.Revoke
	API    *APIDone // set when the server's API made the write
	Notes  []SeqNote
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
