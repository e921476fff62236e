package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// auditedStore is the small seed behind a store whose writes append to an
// audit log file, as the UI's are, by operator "ops".
func auditedStore(t *testing.T) *store.Store {
	t.Helper()
	plain, tb := newTestStore(t, false)
	seedSmall(t, plain)
	log, f, err := store.OpenAuditLog(filepath.Join(t.TempDir(), "audit.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return store.New(tb, store.Options{Audit: log, Operator: "ops"})
}

// L listed the session's warnings and errors only: what the operator wrote
// and was refused was in the audit log file and nowhere on screen. Now L
// shows the operator's audit lines beside them, newest first, in full.
func TestMessageLogShowsTheOperatorsAudit(t *testing.T) {
	opts, _ := testOptions(t, "alice")
	opts.Operator = "ops"
	d := newDriver(t, auditedStore(t), opts, 120, 40)
	d.open(chatAB)
	d.jump(8)
	d.keys("r", "esc") // bob's message: refused
	d.jump(110)
	d.keys("m", "y") // mark read 101-110
	d.keys("L")
	view := d.m.View()
	refused := strings.Index(view, "audit: revoke si_alice_bob seq 8 as alice: refused")
	read := strings.Index(view, "audit: read si_alice_bob seq 101-110 as alice: ok")
	if refused < 0 || read < 0 || read > refused {
		t.Errorf("the log does not show the read, then the refused revoke, newest first:\n%s", view)
	}
	if !strings.Contains(view, "only the sender (bob) may revoke") {
		t.Errorf("the refusal is not in full:\n%s", view)
	}
	if !strings.Contains(view, "audit log of ops: 3 lines") {
		t.Errorf("the log does not say whose audit lines it shows (the read's intent and outcome, the refusal):\n%s", view)
	}
}

// A notice too long for the status line was cut there and lost: the I
// result for a message in a conversation the viewer is not in ended
// "…not a conversation of alice (u: view as a …" at 80 columns. It now
// says what to do first, and L holds it whole.
func TestCutNoticesAreInTheLog(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	m := textMsg("bob", "carol", "", bucket.SessionSingle, 1, "hi carol")
	m.ClientMsgID = "bc-1"
	if _, err := st.InsertMessages(t.Context(), "si_bob_carol", 1, []*bucket.MsgData{m}); err != nil {
		t.Fatal(err)
	}
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 80, 24)
	d.keys("I")
	d.typeText("bc-1")
	d.keys("enter")
	if last := strings.TrimSpace(lastLine(d)); !strings.HasPrefix(last, "not in alice's conversations (a: search all)") {
		t.Errorf("the status line after a miss in alice's conversations starts %q, want what to do first", last)
	}
	d.keys("a")
	if last := strings.TrimSpace(lastLine(d)); !strings.HasPrefix(last, "not a conversation of alice (u: view as a member)") {
		t.Errorf("the status line starts %q, want what to do first", last)
	}
	d.keys("L")
	if view := strings.Join(strings.Fields(strings.ReplaceAll(d.m.View(), "│", " ")), " "); !strings.Contains(view, "found by client_msg_id in si_bob_carol seq 1 (bucket si_bob_carol:0 slot 0)") {
		t.Errorf("L does not hold the notice whole:\n%s", d.m.View())
	}
}
