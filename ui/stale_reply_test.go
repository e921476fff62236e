package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/pages/list"
	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// TestSlowDateJumpThenBottomEndsAtTheBottom: a jump to a date waits for
// the read that finds its seq, and G pressed meanwhile waits behind it, as
// every key waits behind one that needs a read: the keys mean what they
// mean one by one (the date, then the bottom), so the late answer cannot
// pull the cursor back from the bottom.
func TestSlowDateJumpThenBottomEndsAtTheBottom(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.keys("g")
	d.keys(":")
	d.typeText("2024-05-01 09:10") // seq 10 was sent then
	// The jump's one reply, the date resolved, is held back (its status
	// line, "looking for…", is no reply).
	held := d.runHolding(d.sendOnly(keyMsg("enter")), func(msg tea.Msg) bool {
		_, note := msg.(timeline.NoteMsg)
		return !note
	})
	if len(held) != 1 {
		t.Fatalf("the date jump gave %d replies, want 1 held back", len(held))
	}
	d.keys("G")
	if d.m.tl.Cursor() != 1 {
		t.Fatalf("G went to %d before the date jump before it landed, want it to wait on 1", d.m.tl.Cursor())
	}
	d.send(held[0])
	if d.m.tl.Cursor() != 120 {
		t.Errorf("the date jump and G ended on %d, want 120", d.m.tl.Cursor())
	}
	if rowOf(d.m.View(), 120) == "" {
		t.Errorf("seq 120 is not drawn after the date jump and G:\n%s", d.m.View())
	}
	if strings.Contains(d.m.View(), "looking for") {
		t.Errorf("the status bar still says it is looking once the date is found:\n%s", d.m.View())
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
