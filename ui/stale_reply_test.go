package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/pages/list"
)

// TestSlowDateJumpDoesNotUndoANewerBottom: a jump to a date is resolved in
// the background; when the user presses G before it lands, the late answer
// must not pull the cursor back to the date.
func TestSlowDateJumpDoesNotUndoANewerBottom(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.keys("g")
	d.keys(":")
	d.typeText("2024-05-01 09:10") // seq 10 was sent then
	// The jump's one reply, the date resolved, is held back.
	held := d.runHolding(d.sendOnly(keyMsg("enter")), func(tea.Msg) bool { return true })
	if len(held) != 1 {
		t.Fatalf("the date jump gave %d replies, want 1 held back", len(held))
	}
	d.keys("G")
	if d.m.tl.Cursor() != 120 {
		t.Fatalf("G put the cursor on %d, want 120", d.m.tl.Cursor())
	}
	d.send(held[0])
	if d.m.tl.Cursor() != 120 {
		t.Errorf("the late date jump moved the cursor from 120 back to %d after G", d.m.tl.Cursor())
	}
	if strings.Contains(d.m.View(), "jumped to seq 10") {
		t.Errorf("the status bar reports the dropped date jump:\n%s", d.m.View())
	}
	if rowOf(d.m.View(), 120) == "" {
		t.Errorf("seq 120 is no longer drawn after the late date jump:\n%s", d.m.View())
	}
}

// TestMarkReadRightAfterViewerSwitchPlansFromTheNewWindow: right after V
// switches to bob, the timeline still holds alice's read seq while his
// window is read; m must not offer to mark read from alice's read seq as
// if it were bob's: the store plans it from bob's, as stored.
func TestMarkReadRightAfterViewerSwitchPlansFromTheNewWindow(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB) // alice has read up to 100, bob up to 118
	held := d.runHolding(d.sendOnly(keyMsg("V")), func(msg tea.Msg) bool {
		_, ok := msg.(list.ViewerReadMsg) // bob's records bring his window along
		return ok
	})
	if len(held) != 1 || d.m.tl.Viewer() != "bob" {
		t.Fatalf("V: viewer %s, %d window replies held, want bob and 1", d.m.tl.Viewer(), len(held))
	}
	d.keys("m")
	text := strings.Join(d.m.confirm.Lines, " / ")
	if d.m.overlay != ovConfirm || !strings.Contains(text, "would mark seq 119-120 ") || !strings.Contains(text, "bob's read seq: 118 -> 120") {
		t.Errorf("m before bob's window arrived offers %q, want seqs 119-120 from bob's read seq 118; status %q", text, d.m.status)
	}
}
