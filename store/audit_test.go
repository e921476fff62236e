package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestAuditLogWritesNoUnsafeRune: an operator (--by) and a conversation ID
// holding bidi and C1 characters reach the audit log escaped, as every
// other output writes them, so `tail -f audit.log` shows the line as it
// is, and a JSON reader still reads the same names back.
func TestAuditLogWritesNoUnsafeRune(t *testing.T) {
	hostile := "ops\u202eNIMDA\u009b2J\u0085x\U000E0049"
	cid := "si_alice_\u202ebob"
	var log bytes.Buffer
	s := store.New(testkit.TempBackend(t), store.Options{Audit: store.NewAuditLog(&log), Operator: hostile})
	if _, err := s.Revoke(t.Context(), cid, []int64{1}, bucket.Revoke{UserID: hostile}); err != nil {
		t.Fatal(err)
	}
	for _, r := range log.String() {
		if bucket.UnsafeRune(r) {
			t.Fatalf("audit log holds %U raw: %q", r, log.String())
		}
	}
	for _, line := range bytes.Split(bytes.TrimSpace(log.Bytes()), []byte("\n")) {
		var e store.AuditEntry
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if e.Operator != hostile || e.Conversation != cid || e.As != hostile {
			t.Errorf("read back %+v, want the names as given", e)
		}
	}
}

// usersFail fails the user lookup every write's check starts with.
type usersFail struct{ store.Backend }

func (usersFail) Users(context.Context, []string) ([]bucket.User, error) {
	return nil, errors.New("lock not released within 1s")
}

// TestWriteWhoseCheckFailsIsAudited: a write whose check cannot read (the
// file locked by another process, the server gone) wrote nothing and was
// in no audit line; it is audited failed, with why.
func TestWriteWhoseCheckFailsIsAudited(t *testing.T) {
	var log bytes.Buffer
	s := store.New(usersFail{testkit.TempBackend(t)}, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
	_, err := s.Do(t.Context(), store.WriteRequest{Action: store.ActionRevoke, Cid: "si_alice_bob", By: "alice", Seqs: []int64{3}})
	if err == nil {
		t.Fatal("the write succeeded")
	}
	entries := testkit.AuditEntries(t, log.Bytes())
	if len(entries) != 1 || entries[0].Result != store.ResultFailed || !strings.Contains(entries[0].Error, "lock not released") ||
		store.FormatSeqs(entries[0].Seqs) != "3" {
		t.Errorf("audit log %+v; want one failed revoke of seq 3 saying why", entries)
	}
}
