package rediscache

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/chatlens/chatlens/store/bucket"
)

// testServer is the Redis a test runs against: the real one named by
// CHATLENS_TEST_REDIS (host:port), else an in-process miniredis. raw is a
// plain client used to plant and inspect keys the way an OpenIM Server would.
type testServer struct {
	addr string
	mini *miniredis.Miniredis // nil against a real Redis
	raw  *redis.Client
}

func newServer(t testing.TB) *testServer {
	t.Helper()
	s := &testServer{addr: os.Getenv("CHATLENS_TEST_REDIS")}
	if s.addr == "" {
		s.mini = miniredis.RunT(t)
		s.addr = s.mini.Addr()
	}
	s.raw = redis.NewClient(&redis.Options{Addr: s.addr, Protocol: 2, DisableIdentity: true})
	t.Cleanup(func() { _ = s.raw.Close() })
	return s
}

// open opens a Cache on addr; the test fails if it cannot.
func openCache(t testing.TB, addr string) *Cache {
	t.Helper()
	c, err := Open(context.Background(), addr, Options{Timeout: time.Second})
	if err != nil {
		t.Fatalf("Open(%s): %v", addr, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// newCid is a conversation ID no other test (or deployment) uses; every key
// naming it is deleted when the test ends, since keys have no prefix.
func (s *testServer) newCid(t testing.TB) string {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	cid := "si_chatlenstest" + hex.EncodeToString(b) + "_u2"
	t.Cleanup(func() {
		ctx := context.Background()
		iter := s.raw.Scan(ctx, 0, "*"+cid+"*", 1000).Iterator()
		for iter.Next(ctx) {
			s.raw.Del(ctx, iter.Val())
		}
	})
	return cid
}

// cacheSlot stores slot at MSG_CACHE:<cid>:<seq> the way the server's
// rockscache does after a rebuild: value set, locks removed, 24h TTL.
func (s *testServer) cacheSlot(t testing.TB, cid string, seq int64, slot *bucket.Slot) {
	t.Helper()
	v, err := EncodeSlot(slot)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	key := MsgCacheKey(cid, seq)
	if err := s.raw.HSet(ctx, key, fieldValue, v).Err(); err != nil {
		t.Fatal(err)
	}
	s.raw.HDel(ctx, key, fieldLockUntil, fieldLockOwner)
	s.raw.Expire(ctx, key, 24*time.Hour)
}

func textMsg(seq int64, from, text string) *bucket.MsgData {
	return &bucket.MsgData{SendID: from, RecvID: "u2", ClientMsgID: "c" + from, ServerMsgID: "s" + from,
		SessionType: bucket.SessionSingle, MsgFrom: bucket.MsgFromUser, ContentType: 101,
		Content: `{"content":"` + text + `"}`, Seq: seq, SendTime: 1700000000000 + seq,
		CreateTime: 1700000000000 + seq, Status: bucket.StatusSent}
}

func textSlot(seq int64, text string) *bucket.Slot {
	return &bucket.Slot{Msg: textMsg(seq, "u1", text), DelList: []string{}}
}

// proxy forwards TCP to a Redis and can be killed, so a test can take Redis
// away mid-session without touching the machine's Redis server.
type proxy struct {
	ln     net.Listener
	mu     sync.Mutex
	conns  []net.Conn
	closed bool
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln}
	go p.serve(target)
	t.Cleanup(p.kill)
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) serve(target string) {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", target)
		if err != nil {
			_ = in.Close()
			continue
		}
		if !p.track(in, out) {
			return
		}
		go func() { _, _ = io.Copy(out, in); _ = out.Close() }()
		go func() { _, _ = io.Copy(in, out); _ = in.Close() }()
	}
}

func (p *proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		for _, c := range conns {
			_ = c.Close()
		}
		return false
	}
	p.conns = append(p.conns, conns...)
	return true
}

// kill drops the listener and every open connection: Redis is "down".
func (p *proxy) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	_ = p.ln.Close()
	for _, c := range p.conns {
		_ = c.Close()
	}
}

// silentServer accepts connections and never answers: a hung Redis.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return ln.Addr().String()
}

// closedPort is an address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

func mustNotContain(t *testing.T, what, text, secret string) {
	t.Helper()
	if strings.Contains(text, secret) {
		t.Errorf("%s leaks the password: %s", what, text)
	}
}

// EncodeSlot is the MSG_CACHE value the server writes for slot: JSON of the
// slot with Go field names, the way tests seed a Redis as the server fills it.
func EncodeSlot(slot *bucket.Slot) (string, error) {
	b, err := json.Marshal(slot)
	return string(b), err
}
