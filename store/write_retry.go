package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrNotWritten marks a write error that says the server wrote nothing
// and a second try may succeed: a deadlock (PostgreSQL's "deadlock
// detected" through FerretDB, for one of several inserts of one new
// bucket), a write conflict, a transient or retryable error label, a
// primary stepping down in a failover. Backends wrap such errors with it;
// the state machine tries the bucket again, MaxWriteRetries times at most,
// deciding afresh between update and insert.
var ErrNotWritten = errors.New("nothing written, worth another try")

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
