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
// says where and what to do first, and L holds it whole.
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
	if last := strings.TrimSpace(lastLine(d)); !strings.HasPrefix(last, "in si_bob_carol seq 1, not a conversation of alice: u bob, then I") {
		t.Errorf("the status line starts %q, want what to do first", last)
	}
	d.keys("L")
	if view := strings.Join(strings.Fields(strings.ReplaceAll(d.m.View(), "│", " ")), " "); !strings.Contains(view, "found by client_msg_id in si_bob_carol seq 1 (bucket si_bob_carol:0 slot 0)") {
		t.Errorf("L does not hold the notice whole:\n%s", d.m.View())
	}
}

// A find's hit in a conversation the viewer is not in names a member to
// view it as, and the next I offers the ID again, so u MEMBER then I enter
// opens it at the message (the ID had to be typed anew).
func TestFindElsewhereNamesAMemberAndOffersTheIDAgain(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	m := textMsg("bob", "carol", "", bucket.SessionSingle, 1, "hi carol")
	m.ClientMsgID = "a-client-msg-id-of-32-characters"
	if _, err := st.InsertMessages(t.Context(), "si_bob_carol", 1, []*bucket.MsgData{m}); err != nil {
		t.Fatal(err)
	}
	insertRaw(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "bob", ConversationID: "si_bob_carol", ConversationType: 1, UserID: "carol"})
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 24)
	d.keys("I")
	d.typeText(m.ClientMsgID)
	d.keys("enter", "a")
	if !strings.Contains(d.m.status, "u bob") || !strings.Contains(d.m.status, "(members: bob, carol)") {
		t.Fatalf("the status names no member to view as: %q", d.m.status)
	}
	d.keys("u")
	d.typeText("bob")
	d.keys("enter", "I")
	if v := d.m.input.Value(); v != m.ClientMsgID {
		t.Fatalf("I offers %q, want the last ID", v)
	}
	d.keys("enter")
	if d.m.tl == nil || d.m.tl.ID() != "si_bob_carol" || d.m.tl.Cursor() != 1 {
		t.Fatalf("u bob, I enter did not open si_bob_carol at seq 1: %q", d.m.status)
	}
}
