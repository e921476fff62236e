package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func click(x, y int) tea.MouseMsg {
	return tea.MouseMsg{X: x, Y: y, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft}
}

// lineOf is the screen line that contains want.
func lineOf(t *testing.T, view, want string) int {
	t.Helper()
	for i, l := range strings.Split(view, "\n") {
		if strings.Contains(l, want) {
			return i
		}
	}
	t.Fatalf("%q is not on screen:\n%s", want, view)
	return -1
}

// TestClickSelects: with --mouse a click on a conversation opens it, a
// click on a timeline row puts the cursor there, a click on the read line
// does nothing.
func TestClickSelects(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	opts.Mouse = true
	d := newDriver(t, st, opts, 120, 40)
	d.send(click(5, lineOf(t, d.m.View(), "@ Bob")))
	if d.m.tl == nil || d.m.tl.ID() != chatAB {
		t.Fatalf("clicking Bob did not open the chat:\n%s", d.m.View())
	}
	view := d.m.View()
	d.send(click(60, lineOf(t, view, "hello 103 from alice")))
	if d.m.tl.Cursor() != 103 {
		t.Errorf("cursor at %d after clicking seq 103", d.m.tl.Cursor())
	}
	d.send(click(60, lineOf(t, d.m.View(), "Alice read up to here")))
	if d.m.tl.Cursor() != 103 {
		t.Errorf("clicking the read line moved the cursor to %d", d.m.tl.Cursor())
	}
	d.send(click(5, lineOf(t, d.m.View(), "# Team")))
	if d.m.tl.ID() != chatT {
		t.Errorf("clicking Team in the list opened %s", d.m.tl.ID())
	}
}

// TestClickNarrow: below 70 columns only the focused pane is drawn; a
// click there selects in it.
func TestClickNarrow(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 60, 30)
	d.open(chatAB)
	d.send(click(30, lineOf(t, d.m.View(), "hello 110 from bob")))
	if d.m.tl.Cursor() != 110 {
		t.Errorf("cursor at %d after clicking seq 110 at 60 columns", d.m.tl.Cursor())
	}
}

// TestClickBelowAGap: a click picks the seq drawn on the row, however many
// seqs a gap row above it stands for (a gap is one row, not one per seq).
func TestClickBelowAGap(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedFar(t, st)
	opts, _ := testOptions(t, "alice")
	opts.Mouse = true
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatFar)
	d.jump(5)
	d.send(click(60, lineOf(t, d.m.View(), "1000000004 ")))
	if d.m.tl.Cursor() != farSeq+3 {
		t.Errorf("clicking seq %d below the gap put the cursor at %d", farSeq+3, d.m.tl.Cursor())
	}
}
