package ui

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/store/bucket"
)

// withKeys is testOptions with body as the keys.json.
func withKeys(t *testing.T, body string) Options {
	t.Helper()
	opts, _ := testOptions(t, "alice")
	if err := os.WriteFile(opts.KeymapFile, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return opts
}

// TestDialogKeysFromKeyMap: with confirm moved to ctrl+y and cancel to x,
// the delete dialog says so, y no longer confirms, and x cancels.
func TestDialogKeysFromKeyMap(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	d := newDriver(t, st, withKeys(t, `{"confirm": ["ctrl+y"], "cancel": ["x"]}`), 120, 40)
	d.open(chatAB)
	d.jump(11)
	d.keys("d")
	view := d.m.View()
	if !strings.Contains(view, "ctrl+y: do it") || !strings.Contains(view, "x: cancel") {
		t.Fatalf("the dialog does not name the moved keys:\n%s", view)
	}
	d.keys("y")
	if d.m.overlay != ovConfirm {
		t.Fatal("y still answers the dialog after confirm moved to ctrl+y")
	}
	d.keys("x")
	if d.m.overlay != ovNone || d.m.status != "cancelled" {
		t.Errorf("x did not cancel: overlay %d, status %q", d.m.overlay, d.m.status)
	}
}

// TestHelpFitsSixtyColumns: every line of the ? overlay at 60x20 stays
// inside the screen, and every key is on it.
func TestHelpFitsSixtyColumns(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 60, 24)
	d.keys("?")
	view := d.m.View()
	boxTop, boxBottom := false, false // the box's corners, inside the pane's
	for _, l := range strings.Split(view, "\n") {
		boxTop = boxTop || strings.Index(l, "╭") > 0
		boxBottom = boxBottom || strings.Index(l, "╰") > 0
	}
	if !boxTop || !boxBottom {
		t.Errorf("the help box lost a border at 60x24:\n%s", view)
	}
	for i, l := range strings.Split(view, "\n") {
		if w := ansi.StringWidth(l); w != 60 {
			t.Errorf("line %d is %d cells wide:\n%s", i, w, view)
		}
	}
	for _, want := range []string{"retry", "quit", "follow", "message log", "jump to seq/date", "bucket boundaries"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q is not on the help at 60 columns:\n%s", want, view)
		}
	}
}

// errLong is a failure longer than any status bar.
var errLong = errors.New("server selection error: context deadline exceeded, current topology: { Type: ReplicaSetNoPrimary, Servers: [{ Addr: mongo-2.internal:27017, Type: Unknown }] } END-OF-ERROR")

// TestMessageLogHoldsErrorsInFull: a load that fails with a long error is
// cut on screen; the message log key shows it whole, once.
func TestMessageLogHoldsErrorsInFull(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 80, 30)
	tb.SetFail(errLong)
	d.open(chatAB)
	d.keys(":") // to a bucket not held: the read fails, the cursor stays
	d.typeText("5")
	d.keys("enter")
	if strings.Contains(d.m.View(), "END-OF-ERROR") {
		t.Fatalf("the error fits the screen, the test proves nothing:\n%s", d.m.View())
	}
	d.keys("L")
	view := d.m.View()
	if !strings.Contains(view, "END-OF-ERROR") || !strings.Contains(view, "Messages (1)") {
		t.Errorf("the message log does not hold the whole error once:\n%s", view)
	}
	d.keys("L")
	if d.m.overlay != ovNone {
		t.Error("L does not close the log")
	}
}

// TestCutErrorPointsAtTheLog: a status error cut by the width ends with
// the key that shows it in full.
func TestCutErrorPointsAtTheLog(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 60, 20)
	d.m.setStatus(errLong.Error(), true)
	lines := strings.Split(d.m.View(), "\n")
	if last := lines[len(lines)-1]; !strings.HasSuffix(strings.TrimSpace(last), "L: full text") {
		t.Errorf("the cut error does not point at the log: %q", last)
	}
}

// TestSmallScreensKeepTheirBorders: at 40x12 the inspector, the help and
// the message log are drawn inside the screen with their top border.
func TestSmallScreensKeepTheirBorders(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 40, 12)
	d.open(chatAB)
	d.keys("i")
	view := d.m.View()
	lines := strings.Split(view, "\n")
	if len(lines) != 12 || !strings.HasPrefix(lines[0], "╭") || !strings.HasPrefix(lines[9], "╰") {
		t.Errorf("the inspector at 40x12 lost its border:\n%s", view)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != 40 {
			t.Errorf("line %d is %d cells wide", i, w)
		}
	}
}

// TestEmojiWithVS16KeepsBordersInTmux: a message holding "❤️" and "⛰️"
// (a one-cell character and VS16, two cells to a grapheme-aware terminal,
// one to tmux) leaves every line of the list, the timeline and the delete
// dialog exactly as wide as the screen by both measures.
func TestEmojiWithVS16KeepsBordersInTmux(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	msg := textMsg("alice", "bob", "", bucket.SessionSingle, 121, "love it ❤️ see you at ⛰️ and ☕️")
	if _, err := st.InsertMessages(context.Background(), chatAB, 121, []*bucket.MsgData{msg}); err != nil {
		t.Fatal(err)
	}
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	screens := map[string]string{"list": d.m.View()}
	d.open(chatAB)
	screens["timeline"] = d.m.View()
	d.keys("d")
	screens["dialog"] = d.m.View()
	for name, view := range screens {
		if !strings.Contains(view, "love it") {
			t.Fatalf("%s: the message is not on screen:\n%s", name, view)
		}
		for i, l := range strings.Split(view, "\n") {
			if g, wc := ansi.StringWidth(l), ansi.StringWidthWc(l); g != 120 || wc != 120 {
				t.Errorf("%s line %d: %d cells to a grapheme-aware terminal, %d to tmux; want 120: %q", name, i, g, wc, l)
			}
		}
	}
}
