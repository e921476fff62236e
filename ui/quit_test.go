package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
)

// q (or Ctrl-C) while a write is "working…" once ended the program at once,
// cutting the write off with nothing in the audit log. Now the program
// waits for the write, says so, and quits when it is done.
func TestQuitWaitsForTheWriteUnderWay(t *testing.T) {
	for _, quitKey := range []tea.KeyMsg{keyMsg("q"), {Type: tea.KeyCtrlC}} {
		t.Run(quitKey.String(), func(t *testing.T) {
			plain, tb := newTestStore(t, false)
			seedSmall(t, plain)
			var log bytes.Buffer
			st := store.New(tb, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
			opts, _ := testOptions(t, "alice")
			d := newDriver(t, st, opts, 120, 40)
			d.open(chatAB)
			d.keys("m") // mark read up to the cursor: asks first
			if d.m.overlay != ovConfirm {
				t.Fatal("m did not ask for confirmation")
			}
			write := d.sendOnly(keyMsg("y")) // the write, not run yet
			if quit := d.sendOnly(quitKey); isQuit(quit) {
				t.Fatalf("%s quit while the write was under way", quitKey)
			}
			if view := d.m.View(); !strings.Contains(view, "quitting when it is done") {
				t.Errorf("the screen does not say it waits for the write:\n%s", view)
			}
			done := write()
			if _, ok := done.(actionDoneMsg); !ok {
				t.Fatalf("the write ended with %T", done)
			}
			if _, after := d.m.Update(done); !isQuit(after) {
				t.Error("the program did not quit once the write was done")
			}
			var results []string
			for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
				var e store.AuditEntry
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatalf("audit line %q: %v", line, err)
				}
				results = append(results, e.Action+" "+e.Result)
			}
			if strings.Join(results, ",") != "read intent,read ok" {
				t.Errorf("audit log %q, want the read's intent and its outcome", results)
			}
		})
	}
}

// With no write under way, q quits at once.
func TestQuitWithNoWriteQuitsAtOnce(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	if !isQuit(d.sendOnly(keyMsg("q"))) {
		t.Error("q did not quit")
	}
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// Every refusal is in the audit log, the UI's too, written by the store
// as it plans: a revoke of a message already revoked, a mark read of seqs
// already read, a revoke the rule refuses (alice's of bob's message in
// their single chat: the dialog says "Revoke refused"), and any write key
// in read-only mode.
func TestRefusalsInTheUIAreAudited(t *testing.T) {
	plain, tb := newTestStore(t, false)
	seedSmall(t, plain)
	for _, c := range []struct {
		readOnly bool
		seq      int64
		key      string
		want     string
	}{
		{false, 7, "r", "revoke refused seq 7"}, // revoked by bob
		{false, 50, "m", "read refused seq 50"}, // alice has read up to 100
		{false, 8, "r", "revoke refused seq 8"}, // bob's: only the sender may
		{true, 110, "d", "delete refused seq 110"},
	} {
		var log bytes.Buffer
		st := store.New(tb, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops", ReadOnly: c.readOnly})
		opts, _ := testOptions(t, "alice")
		opts.ReadOnly = c.readOnly
		d := newDriver(t, st, opts, 120, 40)
		d.open(chatAB)
		d.jump(c.seq)
		d.keys(c.key)
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
			var e store.AuditEntry
			if json.Unmarshal([]byte(line), &e) == nil {
				got = append(got, e.Action+" "+e.Result+" seq "+store.FormatSeqs(e.Seqs))
			}
		}
		if strings.Join(got, ";") != c.want {
			t.Errorf("%s on seq %d (read-only %v): audit %q, want %q", c.key, c.seq, c.readOnly, got, c.want)
		}
	}
}
