package mongostore_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
)

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestOpenUnreachableFailsFastWithoutPassword(t *testing.T) {
	uri := "mongodb://ops:hunter2secret@" + closedPort(t) + "/admin"
	start := time.Now()
	_, err := mongostore.Open(t.Context(), uri, "chat", mongostore.Options{Timeout: 300 * time.Millisecond})
	if err == nil {
		t.Fatal("Open of a closed port succeeded")
	}
	// The driver's own default is 30 s: anything near it means Timeout was ignored.
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("Open took %s with a 300ms timeout", took)
	}
	msg := err.Error()
	t.Logf("unreachable: %s", msg)
	if strings.Contains(msg, "hunter2secret") {
		t.Errorf("error shows the password: %s", msg)
	}
	if strings.Contains(msg, "\n") {
		t.Errorf("error is not one line: %q", msg)
	}
	if !strings.Contains(msg, "ops:****@") || !strings.Contains(msg, "no server reachable") {
		t.Errorf("error does not say which server could not be reached: %s", msg)
	}
}

func TestOpenRejectsBadInputClearly(t *testing.T) {
	srv := mongotest.Start(t)
	tests := []struct {
		name, uri, db, readPref, want string
	}{
		{"read preference", srv.URI(), "chat", "secundary", `read preference "secundary" is not one of`},
		{"uri scheme", "postgres://ops:pw123456@host/db", "chat", "", "mongodb"},
		{"uri escape", "mongodb://ops:pw%zz123456@host/db", "chat", "", "open mongodb://ops:****@host/chat: "},
		{"no database", srv.URI(), "", "", "no database name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mongostore.Open(t.Context(), tt.uri, tt.db, mongostore.Options{ReadPreference: tt.readPref, Timeout: time.Second})
			if err == nil {
				t.Fatal("Open succeeded")
			}
			msg := err.Error()
			t.Logf("%s", msg)
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error %q does not mention %q", msg, tt.want)
			}
			if strings.Contains(msg, "pw123456") || strings.Contains(msg, "zz123456") || strings.Contains(msg, "\n") {
				t.Errorf("error leaks the password or spans lines: %q", msg)
			}
		})
	}
}

func TestOpenAcceptsEveryReadPreference(t *testing.T) {
	srv := mongotest.Start(t)
	for _, rp := range []string{"", "primary", "primaryPreferred", "secondary", "secondaryPreferred", "nearest", "SECONDARY"} {
		b, err := mongostore.Open(t.Context(), srv.URI(), "chat", mongostore.Options{ReadPreference: rp, Timeout: 2 * time.Second})
		if err != nil {
			t.Errorf("read preference %q: %v", rp, err)
			continue
		}
		if got := b.Describe(); got != "mongodb://"+srv.Addr()+"/chat" {
			t.Errorf("Describe = %q", got)
		}
		_ = b.Close(t.Context())
	}
}

func TestFerretDBAcceptsCausalSessions(t *testing.T) {
	b := openDB(t, mongotest.Start(t).URI())
	if !b.CausalSessions() {
		t.Error("FerretDB refused causally consistent sessions; operations run without them")
	}
}

func TestServerGoneThenBack(t *testing.T) {
	srv := mongotest.Start(t)
	uri := srv.URI()
	b, err := mongostore.Open(t.Context(), uri, mongotest.Database(t, uri), mongostore.Options{Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	if err := b.RaiseMaxSeq(t.Context(), "sg_g1", 42); err != nil {
		t.Fatal(err)
	}

	srv.Stop()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err = b.SeqRecords(ctx, []string{"sg_g1"})
	if err == nil {
		t.Fatal("read from a stopped server succeeded")
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("read hung until the caller's deadline instead of failing: %v", err)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
	t.Logf("read while stopped: %v", err)

	srv.Restart()
	var recs []bucket.SeqRecord
	deadline := time.Now().Add(10 * time.Second)
	for {
		recs, err = b.SeqRecords(t.Context(), []string{"sg_g1"})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("backend did not recover after restart: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(recs) != 1 || recs[0].MaxSeq != 42 {
		t.Errorf("after restart seq records = %v, want max_seq 42 kept", recs)
	}
}

// One Backend is shared by every goroutine of the program: its causal
// session bookkeeping must be safe under -race. (Writers touch different
// documents; FerretDB loses concurrent updates to one document.)
func TestOneBackendManyGoroutines(t *testing.T) {
	b := fresh(t)
	ctx := t.Context()
	errs := make(chan error, 8)
	for w := range 8 {
		go func() {
			cid := "sg_w" + string(rune('a'+w))
			for seq := int64(1); seq <= 5; seq++ {
				if err := b.RaiseMaxSeq(ctx, cid, seq); err != nil {
					errs <- err
					return
				}
				if _, err := b.SeqRecords(ctx, []string{cid}); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	recs, err := b.SeqRecords(ctx, []string{"sg_wa", "sg_wd", "sg_wh"})
	if err != nil || len(recs) != 3 {
		t.Fatalf("seq records = %+v, %v", recs, err)
	}
	for _, r := range recs {
		if r.MaxSeq != 5 {
			t.Errorf("%s max_seq = %d, want 5", r.ConversationID, r.MaxSeq)
		}
	}
}
