package mongostore_test

import (
	"bytes"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/testkit"
)

// A connection that breaks after the request reached the server but before
// the reply came back: the revoke of seqs 101-200 (one update of bucket 1)
// is stored, yet the writer heard nothing. Those seqs must be reported (and
// audited) as unknown, not as not done; bucket 0's are done, bucket 2's not.
func TestLostReplyIsUnknownNotNotDone(t *testing.T) {
	srv := mongotest.Start(t)
	lose := newReplyDropper(t, srv.Addr())
	s, tb, log := faultStore(t, lose.addr(), 4*faultTimeout)
	if _, err := s.InsertMessages(t.Context(), faultCid, 1, faultMsgs(1, 250)); err != nil {
		t.Fatal(err)
	}
	seqs := []int64{}
	for seq := int64(1); seq <= 250; seq++ {
		seqs = append(seqs, seq)
	}
	// Every bucket is one update of its slots: the second loses its reply.
	tb.tripAfter(1, lose.dropNextReply)
	res, err := within(t, "a revoke whose reply is lost", func() (store.WriteResult, error) {
		return s.Revoke(t.Context(), faultCid, seqs, bucket.Revoke{UserID: "alice", Time: 5})
	})
	wantCleanError(t, "revoke with a lost reply", err)
	if store.FormatSeqs(res.Unknown) != "101-200" || store.FormatSeqs(res.Applied) != "1-100" {
		t.Errorf("applied %v, unknown %v; want 1-100 done and 101-200 unknown", res.Applied, res.Unknown)
	}
	if !strings.Contains(err.Error(), "seq 101-200 unknown") {
		t.Errorf("error %q does not say the outcome of seqs 101-200 is unknown", err)
	}
	entries := testkit.AuditEntries(t, log.Bytes())
	if last := entries[len(entries)-1]; last.Result != "partial" || store.FormatSeqs(last.Applied) != "1-100" || store.FormatSeqs(last.Unknown) != "101-200" {
		t.Errorf("audit outcome %+v, want partial, applied 1-100, unknown 101-200", last)
	}
	// The server did write it: "unknown" was the honest answer.
	var bs []*bucket.Bucket
	eventually(t, "read after the dropped connection", func() error {
		bs, err = s.Buckets(t.Context(), faultCid, []int64{1, 2}, 0)
		return err
	})
	if len(bs) != 2 || bs[0].Slots[0].Slot.Revoke == nil || bs[1].Slots[0].Slot.Revoke != nil {
		t.Errorf("seq 101 revoked %v, seq 201 revoked %v: want the lost update stored and the next bucket untouched",
			len(bs) > 0 && bs[0].Slots[0].Slot.Revoke != nil, len(bs) > 1 && bs[1].Slots[0].Slot.Revoke != nil)
	}
}

// replyDropper forwards TCP to a server; once armed, it lets the next
// update command through and closes its connection when the reply arrives
// (heartbeats on other connections are left alone).
type replyDropper struct {
	ln    net.Listener
	to    string
	armed atomic.Bool
}

func newReplyDropper(t *testing.T, to string) *replyDropper {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &replyDropper{ln: ln, to: to}
	go p.serve()
	t.Cleanup(func() { _ = ln.Close() })
	return p
}

func (p *replyDropper) addr() string   { return p.ln.Addr().String() }
func (p *replyDropper) dropNextReply() { p.armed.Store(true) }

func (p *replyDropper) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.DialTimeout("tcp", p.to, 5*time.Second)
		if err != nil {
			_ = in.Close()
			continue
		}
		var drop atomic.Bool // this connection's next reply is lost
		go p.pipe(out, in, &drop, false)
		go p.pipe(in, out, &drop, true)
	}
}

func (p *replyDropper) pipe(dst, src net.Conn, drop *atomic.Bool, replies bool) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !replies && bytes.Contains(buf[:n], []byte("update\x00")) && p.armed.CompareAndSwap(true, false) {
				drop.Store(true)
			}
			if replies && drop.Load() {
				return // the reply is lost with the connection
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
