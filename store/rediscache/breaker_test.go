package rediscache

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gate stands in front of a Redis and either forwards to it or, once hung,
// accepts connections and never answers. It counts what reaches it while
// hung: connections and bytes, so a test can tell whether a call was sent.
type gate struct {
	ln      net.Listener
	target  string
	hung    atomic.Bool
	arrived atomic.Int64 // connections and bytes received while hung
	mu      sync.Mutex
	conns   []net.Conn
}

func newGate(t *testing.T, target string) *gate {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{ln: ln, target: target}
	go g.serve()
	t.Cleanup(func() { _ = ln.Close(); g.dropAll() })
	return g
}

func (g *gate) addr() string { return g.ln.Addr().String() }

func (g *gate) serve() {
	for {
		in, err := g.ln.Accept()
		if err != nil {
			return
		}
		g.mu.Lock()
		g.conns = append(g.conns, in)
		g.mu.Unlock()
		if g.hung.Load() {
			g.arrived.Add(1)
			go g.swallow(in)
			continue
		}
		out, err := net.Dial("tcp", g.target)
		if err != nil {
			_ = in.Close()
			continue
		}
		g.mu.Lock()
		g.conns = append(g.conns, out)
		g.mu.Unlock()
		go func() { _, _ = io.Copy(out, in); _ = out.Close() }()
		go func() { _, _ = io.Copy(in, out); _ = in.Close() }()
	}
}

// swallow reads and counts whatever a client sends, answering nothing.
func (g *gate) swallow(c net.Conn) {
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		g.arrived.Add(int64(n))
		if err != nil {
			return
		}
	}
}

// hang drops every open connection and answers nothing from now on.
func (g *gate) hang() {
	g.hung.Store(true)
	g.dropAll()
}

// answer drops the connections opened while hung and forwards again, as a
// Redis that was restarted.
func (g *gate) answer() {
	g.hung.Store(false)
	g.dropAll()
}

func (g *gate) dropAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, c := range g.conns {
		_ = c.Close()
	}
	g.conns = nil
}

// A Redis that accepts connections and never answers is asked once, not
// once per call: after that failure the cache stops sending for the
// cooldown (reads fail at once, so the store falls back; Invalidate still
// names every key it could not tag), then tries again, and once Redis
// answers, reads are served from it again. Calls are counted at the
// server, not timed.
func TestHungRedisIsNotAskedAgainUntilTheCooldownEnds(t *testing.T) {
	srv := newServer(t)
	g := newGate(t, srv.addr)
	c, err := Open(context.Background(), g.addr(), Options{Timeout: 100 * time.Millisecond, Cooldown: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var clock atomic.Int64
	clock.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	c.breaker.now = func() time.Time { return time.Unix(0, clock.Load()) }
	cid := srv.newCid(t)
	ctx := context.Background()
	srv.cacheSlot(t, cid, 1, textSlot(1, "cached"))
	if got, err := c.Slots(ctx, cid, []int64{1}); err != nil || len(got) != 1 {
		t.Fatalf("before the hang: %v, %v", got, err)
	}

	g.hang()
	if _, err := c.Slots(ctx, cid, []int64{1}); err == nil {
		t.Fatal("Slots against a hung Redis succeeded")
	}
	first := g.arrived.Load()
	if first == 0 {
		t.Fatal("the first call never reached the hung Redis")
	}
	for range 20 {
		if _, err := c.Slots(ctx, cid, []int64{1, 2}); err == nil {
			t.Fatal("Slots succeeded while Redis hangs")
		}
	}
	if _, err := c.MaxSeqs(ctx, []string{cid}); err == nil {
		t.Error("MaxSeqs succeeded while Redis hangs")
	}
	if _, err := c.ReadSeqs(ctx, "u1", []string{cid}); err == nil {
		t.Error("ReadSeqs succeeded while Redis hangs")
	}
	if err := c.RaiseReadSeq(ctx, cid, "u1", 3); err == nil {
		t.Error("RaiseReadSeq succeeded while Redis hangs")
	}
	err = c.Invalidate(ctx, cid, []int64{1, 2})
	if err == nil || !strings.Contains(err.Error(), MsgCacheKey(cid, 1)) || !strings.Contains(err.Error(), MsgCacheKey(cid, 2)) {
		t.Errorf("Invalidate while Redis hangs = %v, want an error naming both keys", err)
	}
	if got := g.arrived.Load(); got != first {
		t.Errorf("24 more calls sent %d more connections and bytes to a Redis that had just failed, want none", got-first)
	}
	if s := c.Stats().Skipped; s != 24 {
		t.Errorf("Stats().Skipped = %d, want 24", s)
	}

	clock.Add(int64(time.Hour + time.Second))
	if _, err := c.Slots(ctx, cid, []int64{1}); err == nil {
		t.Fatal("Slots succeeded while Redis hangs")
	}
	if g.arrived.Load() == first {
		t.Error("after the cooldown the cache did not try Redis again")
	}

	g.answer()
	clock.Add(int64(time.Hour + time.Second))
	if got, err := c.Slots(ctx, cid, []int64{1}); err != nil || len(got) != 1 {
		t.Fatalf("Redis answers again, after the cooldown: %v, %v", got, err)
	}
	if _, err := c.MaxSeqs(ctx, []string{cid}); err != nil {
		t.Errorf("the next call after Redis came back failed: %v", err)
	}
}
