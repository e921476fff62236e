package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
)

// uiContextsSandbox writes a config.yaml of three contexts over two
// seeded stores: a, b, and ro (b's file, read-only).
func uiContextsSandbox(t *testing.T) (a, b sandbox) {
	t.Helper()
	a, b = seeded(t), seeded(t)
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("CHATLENS_CONTEXT", "")
	cfg := "current-context: a\ncontexts:\n  a:\n    data: " + a.data + "\n  b:\n    utc: true\n    data: " + b.data +
		"\n  ro:\n    data: " + b.data + "\n    read-only: true\n"
	if err := os.MkdirAll(filepath.Join(dir, "chatlens"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "chatlens", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return a, b
}

// uiSession is the session of `chatlens --context a` with the flags
// given on its command line.
func uiSession(conn *connection, given ...string) *session {
	s := &session{process: testProcess(strings.NewReader(""), io.Discard, io.Discard), conn: conn, given: map[string]bool{}}
	for _, g := range given {
		s.given[g] = true
	}
	return s
}

// The UI's switch (X, :context NAME) opens the context named as
// `--context NAME` would: its store, its read-only state, and audit lines
// naming it in the log the command line named.
func TestUISwitchOpensTheContextNamed(t *testing.T) {
	_, b := uiContextsSandbox(t)
	ctx := context.Background()
	u := newUIStores(uiSession(&connection{AuditLog: b.audit}, "audit-log"))
	defer u.closeAll()

	to, err := u.openContext(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	if to.Store.Context() != "b" || to.Store.ReadOnly() || to.Deployment || to.TimeZone != time.UTC {
		t.Fatalf("context b opened as %q, read-only %v, deployment %v, times in %v", to.Store.Context(), to.Store.ReadOnly(), to.Deployment, to.TimeZone)
	}
	if _, err := to.Store.Do(ctx, store.WriteRequest{Action: store.ActionRevoke, Cid: "si_alice_bob", By: "alice", Seqs: []int64{1}}); err != nil {
		t.Logf("the revoke: %v", err) // refused or done: audited either way
	}
	log, err := os.ReadFile(b.audit)
	if err != nil || !strings.Contains(string(log), `"context":"b","action":"revoke"`) {
		t.Errorf("the audit line of a write after the switch does not name context b (%v):\n%s", err, log)
	}

	ro, err := u.openContext(ctx, "ro")
	if err != nil || !ro.Store.ReadOnly() {
		t.Fatalf("context ro: %v; read-only %v", err, err == nil && ro.Store.ReadOnly())
	}

	_, err = u.openContext(ctx, "bb")
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `unknown context "bb", did you mean "b"?`) {
		t.Errorf("an unknown context: %v", err)
	}

	u.release(to.Store)
	u.release(ro.Store)
	if len(u.open) != 0 {
		t.Errorf("%d stores still open after both were let go", len(u.open))
	}
}

// A UI started with --read-only stays read-only on every context it
// switches to; started on a read-only context alone, it may leave it for
// a writable one.
func TestUISwitchKeepsTheRunsReadOnly(t *testing.T) {
	uiContextsSandbox(t)
	ctx := context.Background()
	flagged := newUIStores(uiSession(&connection{ReadOnly: true}, "read-only"))
	defer flagged.closeAll()
	to, err := flagged.openContext(ctx, "b")
	if err != nil || !to.Store.ReadOnly() {
		t.Fatalf("--read-only, then context b: %v, read-only %v", err, err == nil && to.Store.ReadOnly())
	}
	fromRO := newUIStores(uiSession(&connection{ReadOnly: true})) // read-only by context ro, no flag
	defer fromRO.closeAll()
	to, err = fromRO.openContext(ctx, "b")
	if err != nil || to.Store.ReadOnly() {
		t.Fatalf("context ro, then b: %v, read-only %v", err, err == nil && to.Store.ReadOnly())
	}
}

// The picker lists the config file's contexts with what each sets.
func TestUIContextChoices(t *testing.T) {
	a, _ := uiContextsSandbox(t)
	parser, _, err := newParser(testProcess(strings.NewReader(""), io.Discard, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	got := contextChoices(parser)
	if len(got) != 3 || got[0].Name != "a" || got[0].About != "data="+a.data || got[2].Name != "ro" || !strings.Contains(got[2].About, "read-only=true") {
		t.Errorf("choices %+v", got)
	}
}
