package rediscache

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultCooldown is how long a Cache stops asking Redis after a call that
// failed (no answer, connection refused) when Options.Cooldown is zero.
const DefaultCooldown = 10 * time.Second

// breaker stops sending commands to a Redis that just failed, for a
// cooldown, then lets one call through to try again. A Redis that accepts
// connections but never answers would otherwise cost the full timeout on
// every call: a dump of 50,000 messages took 18.5 s of waiting. Skipped
// calls fail at once with errSkipped, so reads fall back to the store and
// writes report the keys they could not invalidate, as for any failure.
type breaker struct {
	cooldown time.Duration
	now      func() time.Time
	skipped  atomic.Int64

	mu    sync.Mutex
	until time.Time // calls are skipped before this; zero when closed
	cause error     // the failure that opened it
}

// skippedError is the error of a call that was not sent.
type skippedError struct {
	cooldown time.Duration
	cause    error
}

func (e *skippedError) Error() string {
	return fmt.Sprintf("not asked: Redis failed moments ago (%v); it is tried again %s after a failure", e.cause, e.cooldown)
}

func (e *skippedError) Unwrap() error { return e.cause }

// sentKey marks the context of a call the breaker let through: the
// commands go-redis sends on its behalf (a new connection's handshake) go
// through the hooks again and must not be skipped.
type sentKey struct{}

// allow says whether a call may be sent: the breaker is closed, or its
// cooldown is over and this call is the one that tries again (the next
// cooldown starts now, so calls racing with it are still skipped).
func (b *breaker) allow(ctx context.Context) error {
	if ctx.Value(sentKey{}) != nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.until.IsZero() {
		return nil
	}
	now := b.now()
	if now.Before(b.until) {
		b.skipped.Add(1)
		return &skippedError{cooldown: b.cooldown, cause: b.cause}
	}
	b.until = now.Add(b.cooldown)
	return nil
}

// record closes the breaker after an answer (a reply error such as
// WRONGTYPE is an answer) and opens it after a failure. A call the caller
// cancelled says nothing about Redis.
func (b *breaker) record(ctx context.Context, err error) {
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if err == nil || errors.Is(err, redis.Nil) || isReplyError(err) {
		b.until, b.cause = time.Time{}, nil
		return
	}
	b.until, b.cause = b.now().Add(b.cooldown), err
}

func (b *breaker) DialHook(next redis.DialHook) redis.DialHook { return next }

func (b *breaker) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if err := b.allow(ctx); err != nil {
			cmd.SetErr(err)
			return err
		}
		err := next(context.WithValue(ctx, sentKey{}, true), cmd)
		b.record(ctx, err)
		return err
	}
}

func (b *breaker) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if err := b.allow(ctx); err != nil {
			for _, cmd := range cmds {
				cmd.SetErr(err) // each command fails, so callers name each key
			}
			return err
		}
		err := next(context.WithValue(ctx, sentKey{}, true), cmds)
		b.record(ctx, pipelineFailure(err, cmds))
		return err
	}
}

// pipelineFailure is the error that says whether Redis answered a
// pipeline: the pipeline's own, else the first command error that is not a
// reply (a connection lost part way).
func pipelineFailure(err error, cmds []redis.Cmder) error {
	if err != nil && !isReplyError(err) && !errors.Is(err, redis.Nil) {
		return err
	}
	for _, cmd := range cmds {
		if e := cmd.Err(); e != nil && !isReplyError(e) && !errors.Is(e, redis.Nil) {
			return e
		}
	}
	return nil
}
