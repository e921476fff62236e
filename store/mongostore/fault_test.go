package mongostore_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/testkit"
)

// Faults of issue 5: the server goes away in the middle of a read or a
// write, or stops answering. The caller gets one clear line, nothing
// panics, a write that did not finish is never reported (or audited) as
// done, and once the server is back the same Store reads the same data and
// the write, delivered again, completes.

const (
	faultCid  = "si_alice_bob"
	faultPass = "s3cr3t-pw"
	// faultTimeout bounds server selection, and each round trip where the
	// server stalls (FerretDB under -race needs more where it does not).
	faultTimeout = 2 * time.Second
	// hangGuard only keeps a broken build from hanging the suite: an
	// operation that has not returned by then never will.
	hangGuard = 30 * time.Second
)

// faultMsgs are seqs first..last of faultCid, the same on every delivery.
func faultMsgs(first, last int64) []*bucket.MsgData {
	var out []*bucket.MsgData
	for seq := first; seq <= last; seq++ {
		from, to := "alice", "bob"
		if seq%2 == 0 {
			from, to = to, from
		}
		out = append(out, &bucket.MsgData{SendID: from, RecvID: to, ClientMsgID: fmt.Sprintf("c%d", seq),
			SessionType: bucket.SessionSingle, ContentType: 101, Content: fmt.Sprintf(`{"content":"m%d"}`, seq),
			SendTime: 1700000000000 + seq, Status: bucket.StatusSent, Options: map[string]bool{}, AtUserIDList: []string{}})
	}
	return out
}

// trippingBackend runs hook before the n-th call that reaches the server
// (counting from 1), to take the server away at a chosen point.
// It serves the calls of store.BucketReader, store.BucketWriter,
// store.SeqRecorder and store.Directory that the tests make; every other call
// goes to the Backend it wraps.
type trippingBackend struct {
	store.Backend
	calls atomic.Int64
	at    atomic.Int64 // 0: never
	hook  func()
}

func (b *trippingBackend) tripAfter(n int64, hook func()) {
	b.calls.Store(0)
	b.hook = hook
	b.at.Store(n + 1)
}

func (b *trippingBackend) call() {
	if n := b.calls.Add(1); n == b.at.Load() {
		b.at.Store(0)
		b.hook()
	}
}

func (b *trippingBackend) FindBuckets(ctx context.Context, ids []string) ([]bson.Raw, error) {
	b.call()
	return b.Backend.FindBuckets(ctx, ids)
}

func (b *trippingBackend) FindSlots(ctx context.Context, id string, first, n int) (bson.Raw, bool, error) {
	b.call()
	return b.Backend.FindSlots(ctx, id, first, n)
}

func (b *trippingBackend) FindSlotRanges(ctx context.Context, ranges []store.SlotRange) ([]store.SlotRead, error) {
	b.call()
	return b.Backend.FindSlotRanges(ctx, ranges)
}

func (b *trippingBackend) SeqRecords(ctx context.Context, cids []string) ([]bucket.SeqRecord, error) {
	b.call()
	return b.Backend.SeqRecords(ctx, cids)
}

func (b *trippingBackend) SeqUsers(ctx context.Context, uid string, cids []string) ([]bucket.SeqUser, error) {
	b.call()
	return b.Backend.SeqUsers(ctx, uid, cids)
}

func (b *trippingBackend) Conversations(ctx context.Context, owner string) ([]bucket.Conversation, error) {
	b.call()
	return b.Backend.Conversations(ctx, owner)
}

func (b *trippingBackend) SetSlotsField(ctx context.Context, id, f string, sets []store.SlotValue) (bool, error) {
	b.call()
	return b.Backend.SetSlotsField(ctx, id, f, sets)
}

func (b *trippingBackend) SetSlotsFieldIfUnset(ctx context.Context, id, f string, sets []store.SlotValue) (bool, error) {
	b.call()
	return b.Backend.SetSlotsFieldIfUnset(ctx, id, f, sets)
}

func (b *trippingBackend) SetSlotFieldIfUnset(ctx context.Context, id string, slot int, f string, v any) (bool, error) {
	b.call()
	return b.Backend.SetSlotFieldIfUnset(ctx, id, slot, f, v)
}

func (b *trippingBackend) InsertBucket(ctx context.Context, d *bucket.Doc) error {
	b.call()
	return b.Backend.InsertBucket(ctx, d)
}

func (b *trippingBackend) RaiseMaxSeq(ctx context.Context, cid string, seq int64) error {
	b.call()
	return b.Backend.RaiseMaxSeq(ctx, cid, seq)
}

// faultStore is a Store with an audit log over a backend on the server at
// addr, reached with a URI that carries a password.
func faultStore(t *testing.T, addr string, opTimeout time.Duration) (*store.Store, *trippingBackend, *bytes.Buffer) {
	t.Helper()
	uri := "mongodb://ops:" + faultPass + "@" + addr + "/?authMechanism=PLAIN&heartbeatFrequencyMS=500"
	b, err := mongostore.Open(t.Context(), uri, mongotest.Database(t, "mongodb://"+addr+"/"),
		mongostore.Options{Timeout: faultTimeout, OpTimeout: opTimeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	tb := &trippingBackend{Backend: b}
	var log bytes.Buffer
	return store.New(tb, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"}), tb, &log
}

// wantCleanError checks an error a user would see: present, one line, no
// password.
func wantCleanError(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s succeeded with the server gone", what)
	}
	msg := err.Error()
	t.Logf("%s: %s", what, msg)
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("%s: error is not one line: %q", what, msg)
	}
	if strings.Contains(msg, faultPass) {
		t.Errorf("%s: error shows the password: %s", what, msg)
	}
}

// wantSaysWhy checks a timeout is explained as one, not as a driver detail.
func wantSaysWhy(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); !strings.Contains(msg, "no answer within") && !strings.Contains(msg, "no server reachable") {
		t.Errorf("error does not say the server did not answer: %s", msg)
	}
}

// within runs f and fails the test if it never returns.
func within[T any](t *testing.T, what string, f func() (T, error)) (T, error) {
	t.Helper()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-time.After(hangGuard):
		t.Fatalf("%s never returned: it hangs on a server that does not answer", what)
		panic("unreachable")
	}
}

// eventually retries f until it succeeds (the driver rediscovers a server
// that came back within its heartbeat), failing after a bound.
func eventually(t *testing.T, what string, f func() error) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still failing after the server came back: %v", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// auditResults lists "action result" of each outcome line (the intent
// line before each write is left out).
func auditResults(t *testing.T, log *bytes.Buffer) []string {
	t.Helper()
	if strings.Contains(log.String(), faultPass) {
		t.Errorf("audit log shows the password:\n%s", log)
	}
	var out []string
	for _, e := range testkit.AuditEntries(t, log.Bytes()) {
		if e.Result != store.ResultIntent {
			out = append(out, e.Action+" "+e.Result)
		}
	}
	return out
}

// wantAllMessages reads seqs first..last back through the Store.
func wantAllMessages(t *testing.T, s *store.Store, first, last int64) {
	t.Helper()
	var idx []int64
	for i := bucket.BucketIndex(first); i <= bucket.BucketIndex(last); i++ {
		idx = append(idx, i)
	}
	bs, err := s.Buckets(t.Context(), faultCid, idx, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		for _, sl := range b.Slots {
			if sl.Seq < first || sl.Seq > last {
				continue
			}
			if sl.IsHole() || sl.Slot.Msg.ClientMsgID != fmt.Sprintf("c%d", sl.Seq) {
				t.Errorf("seq %d: message missing after the write was delivered again", sl.Seq)
			}
		}
	}
}

func TestServerStopsMidRead(t *testing.T) {
	t.Parallel() // mostly waits: on timeouts and a restart
	srv := mongotest.Start(t)
	s, tb, _ := faultStore(t, srv.Addr(), 4*faultTimeout)
	if _, err := s.InsertMessages(t.Context(), faultCid, 1, faultMsgs(1, 12)); err != nil {
		t.Fatal(err)
	}
	before, err := s.Windows(t.Context(), "bob", []string{faultCid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Windows reads seq, seq_user, conversation, then the newest bucket:
	// the server vanishes after the first of those.
	tb.tripAfter(1, srv.Stop)
	_, err = within(t, "a read interrupted by a stop", func() (map[string]*bucket.Window, error) {
		return s.Windows(t.Context(), "bob", []string{faultCid}, nil)
	})
	wantCleanError(t, "read interrupted by a stop", err)

	srv.Restart()
	var after map[string]*bucket.Window
	eventually(t, "read after restart", func() error {
		after, err = s.Windows(t.Context(), "bob", []string{faultCid}, nil)
		return err
	})
	if got, want := *after[faultCid], *before[faultCid]; got.MaxSeq != want.MaxSeq || got.MinSeq != want.MinSeq || got.MaxSeq != 12 {
		t.Errorf("window after restart %+v, before the stop %+v", got, want)
	}
	wantAllMessages(t, s, 1, 12)
}

func TestServerStopsMidWrite(t *testing.T) {
	t.Parallel() // mostly waits: on timeouts and a restart
	srv := mongotest.Start(t)
	s, tb, log := faultStore(t, srv.Addr(), 4*faultTimeout)
	// 95..106 is one failed update and two bucket inserts, then max_seq:
	// the server vanishes after the first insert, half the batch stored.
	tb.tripAfter(2, srv.Stop)
	_, err := within(t, "a write interrupted by a stop", func() (store.WriteResult, error) {
		return s.InsertMessages(t.Context(), faultCid, 95, faultMsgs(95, 106))
	})
	wantCleanError(t, "write interrupted by a stop", err)
	// Half the batch stood: the audit says partial, not done.
	if got := auditResults(t, log); len(got) != 1 || got[0] != "insert partial" {
		t.Errorf("audit after the interrupted write = %q, want [insert partial]", got)
	}

	srv.Restart()
	eventually(t, "the same write delivered again", func() error {
		_, err := s.InsertMessages(t.Context(), faultCid, 95, faultMsgs(95, 106))
		return err
	})
	wantAllMessages(t, s, 95, 106)
	res := auditResults(t, log)
	if res[len(res)-1] != "insert ok" {
		t.Errorf("audit after recovery = %q, want the last one ok", res)
	}
	for _, r := range res[:len(res)-1] {
		if r != "insert failed" && r != "insert partial" && r != "insert unknown" {
			t.Errorf("audit = %q: a write that did not complete is recorded as %q", res, r)
		}
	}
}

func TestServerStopsAnswering(t *testing.T) {
	t.Parallel() // mostly waits: on timeouts and a restart
	srv := mongotest.Start(t)
	stall := newStallProxy(t, srv.Addr())
	s, _, log := faultStore(t, stall.addr(), faultTimeout)
	if _, err := s.InsertMessages(t.Context(), faultCid, 1, faultMsgs(1, 10)); err != nil {
		t.Fatal(err)
	}

	stall.stall()
	// No deadline from the caller: the UI and the commands pass a plain
	// context, so the backend must bound each operation itself.
	_, err := within(t, "a read from a server that does not answer", func() ([]*bucket.Bucket, error) {
		return s.Buckets(context.Background(), faultCid, []int64{0}, 0)
	})
	wantCleanError(t, "read from a stalled server", err)
	wantSaysWhy(t, err)
	_, err = within(t, "a write to a server that does not answer", func() (store.WriteResult, error) {
		return s.Revoke(context.Background(), faultCid, []int64{3}, bucket.Revoke{UserID: "alice", Time: 5})
	})
	wantCleanError(t, "write to a stalled server", err)
	wantSaysWhy(t, err)
	// The request was sent and no reply came: maybe written, never "not done".
	if got := auditResults(t, log); len(got) != 2 || got[1] != "revoke unknown" {
		t.Errorf("audit = %q, want the revoke's outcome unknown", got)
	}

	stall.resume()
	eventually(t, "revoke after the server answers again", func() error {
		_, err := s.Revoke(context.Background(), faultCid, []int64{3}, bucket.Revoke{UserID: "alice", Time: 5})
		return err
	})
	bs, err := s.Buckets(context.Background(), faultCid, []int64{0}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := bs[0].Slots[2].Slot.Revoke; r == nil || r.UserID != "alice" {
		t.Errorf("seq 3 after recovery: revoke %+v, want alice's", r)
	}
	wantAllMessages(t, s, 1, 10)
}

// stallProxy forwards TCP to a server until stall, then holds every byte in
// both directions (connections stay open, nothing is answered) until resume.
type stallProxy struct {
	ln      net.Listener
	target  string
	mu      sync.Mutex
	stalled bool
	resumed chan struct{}
	conns   []net.Conn
}

func newStallProxy(t *testing.T, target string) *stallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{ln: ln, target: target, resumed: make(chan struct{})}
	go p.serve()
	t.Cleanup(func() {
		p.resume()
		_ = ln.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			_ = c.Close()
		}
		p.mu.Unlock()
	})
	return p
}

func (p *stallProxy) addr() string { return p.ln.Addr().String() }

func (p *stallProxy) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = in.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		go p.pipe(out, in)
		go p.pipe(in, out)
	}
}

func (p *stallProxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.wait()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				_ = src.Close()
			}
			return
		}
	}
}

// wait blocks while the proxy is stalled.
func (p *stallProxy) wait() {
	p.mu.Lock()
	stalled, ch := p.stalled, p.resumed
	p.mu.Unlock()
	if stalled {
		<-ch
	}
}

func (p *stallProxy) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stalled {
		p.stalled, p.resumed = true, make(chan struct{})
	}
}

func (p *stallProxy) resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stalled {
		p.stalled = false
		close(p.resumed)
	}
}
