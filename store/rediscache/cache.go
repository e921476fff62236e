// Package rediscache is chatlens's Redis first layer: it reads and
// invalidates the same keys as an OpenIM Server (OPENIM.md, Redis section)
// and implements store.Cache. Every method is bounded by a short timeout so a
// dead Redis costs the UI a warning, never a stall.
package rediscache

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// DefaultTimeout bounds each call when Options.Timeout is zero.
const DefaultTimeout = 500 * time.Millisecond

// Options configure a Cache.
type Options struct {
	// Timeout bounds every method call (dial, send and reply together).
	Timeout time.Duration
	// TLSConfig replaces the default TLS settings of rediss:// addresses
	// (system roots, TLS 1.2+). Ignored for plain addresses.
	TLSConfig *tls.Config
	// Cooldown is how long the cache stops asking Redis after a call that
	// failed; 0 means DefaultCooldown. Calls in that time fail at once.
	Cooldown time.Duration
	// NoPing skips Open's connectivity check: the cache is returned even when
	// Redis cannot be reached now, and each call fails (quickly) until it can.
	NoPing bool
}

// Cache is a store.Cache over a go-redis UniversalClient.
type Cache struct {
	client  redis.UniversalClient
	target  target
	timeout time.Duration

	breaker    *breaker
	roundTrips atomic.Int64
	dials      atomic.Int64
	badValues  atomic.Int64
}

var (
	_ store.Cache         = (*Cache)(nil)
	_ store.UserSeqsCache = (*Cache)(nil)
)

// Open connects to the Redis at addr (see parseAddr for the forms) and pings
// it. Errors are one line, name the address with its password masked, and
// wrap ErrBadAddress when addr does not parse.
func Open(ctx context.Context, addr string, opts Options) (*Cache, error) {
	t, err := parseAddr(addr)
	if err != nil {
		return nil, scrub(err, t.password)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	// go-redis logs dial failures to stderr, which would scribble over the
	// TUI; every failure reaches the caller as an error anyway.
	redis.SetLogger(quietLogger{})
	if opts.Cooldown <= 0 {
		opts.Cooldown = DefaultCooldown
	}
	c := &Cache{client: redis.NewUniversalClient(t.options(opts)), target: t, timeout: opts.Timeout,
		breaker: &breaker{cooldown: opts.Cooldown, now: time.Now}}
	c.client.AddHook(c.breaker)
	c.client.AddHook(dialCounter{&c.dials})
	if opts.NoPing {
		return c, nil
	}
	if err := c.Ping(ctx); err != nil {
		_ = c.client.Close()
		return nil, err
	}
	return c, nil
}

func (t target) options(opts Options) *redis.UniversalOptions {
	o := &redis.UniversalOptions{
		Addrs:         t.hosts,
		DB:            t.db,
		Username:      t.username,
		Password:      t.password,
		MasterName:    t.master,
		IsClusterMode: t.mode == ModeCluster,
		// RESP2 and no CLIENT SETINFO: the fewest handshake commands, and
		// what every Redis an OpenIM deployment runs understands.
		Protocol:        2,
		DisableIdentity: true,
		// One retry (a pooled connection may have gone stale); the
		// per-call deadline bounds the whole attempt anyway.
		MaxRetries:            1,
		DialerRetries:         1,
		DialTimeout:           opts.Timeout,
		ReadTimeout:           opts.Timeout,
		WriteTimeout:          opts.Timeout,
		PoolTimeout:           opts.Timeout,
		ContextTimeoutEnabled: true,
		MaintNotificationsConfig: &maintnotifications.Config{
			Mode: maintnotifications.ModeDisabled,
		},
	}
	if t.tls {
		o.TLSConfig = opts.TLSConfig
		if o.TLSConfig == nil {
			host := t.hosts[0]
			if h, _, err := net.SplitHostPort(host); err == nil {
				host = h
			}
			o.TLSConfig = &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
		}
	}
	return o
}

// Ping checks that Redis answers (and accepts the credentials).
func (c *Cache) Ping(ctx context.Context) error {
	ctx, cancel := c.bound(ctx)
	defer cancel()
	c.roundTrips.Add(1)
	return c.fail("ping", c.client.Ping(ctx).Err())
}

// Describe names the cache with its password masked.
func (c *Cache) Describe() string { return c.target.describe() }

// Mode tells whether the client is single-node, Cluster or Sentinel.
func (c *Cache) Mode() Mode { return c.target.mode }

// Close releases the connections.
func (c *Cache) Close() error { return c.client.Close() }

// Stats are counters of this cache beyond what store.Store counts.
type Stats struct {
	// RoundTrips counts requests: one per command or pipeline (a Cluster
	// pipeline is one per node, sent in parallel), handshakes not included.
	RoundTrips int64
	Dials      int64 // connections opened (each adds a handshake)
	BadValues  int64 // cached values that did not decode, served as misses
	Skipped    int64 // calls not sent because Redis had just failed
}

// Stats returns a snapshot of the counters.
func (c *Cache) Stats() Stats {
	return Stats{RoundTrips: c.roundTrips.Load(), Dials: c.dials.Load(), BadValues: c.badValues.Load(),
		Skipped: c.breaker.skipped.Load()}
}

// pipelined sends fn's commands as one pipeline: one round trip.
func (c *Cache) pipelined(ctx context.Context, fn func(redis.Pipeliner)) error {
	c.roundTrips.Add(1)
	_, err := c.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		fn(p)
		return nil
	})
	return err
}

// bound applies the per-call timeout.
func (c *Cache) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.timeout)
}

// fail turns a client error into one line naming the cache, password scrubbed.
func (c *Cache) fail(op string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("no answer within %s: %w", c.timeout, err)
	}
	return scrub(fmt.Errorf("redis %s %s: %w", c.target.describe(), op, err), c.target.password)
}

// dialCounter counts new connections (each costs a handshake).
type dialCounter struct{ n *atomic.Int64 }

func (h dialCounter) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		h.n.Add(1)
		return next(ctx, network, addr)
	}
}

func (h dialCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook { return next }

func (h dialCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}
