package ui

import (
	"strings"
	"testing"
)

// Focus was shown by the border colour alone, with a ▸ on the cursor of
// both panes, so 50 k meant for the timeline moved the list. Only the
// focused pane's cursor is ▸ now, the other's ▹; and the list's cursor,
// when the keys come back to it, is on the conversation the timeline
// shows (it stayed where it was left, naming another).
func TestOnlyTheFocusedPaneHasTheSolidCursor(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.keys("j", "enter") // Bob's chat, the second row
	view := d.m.View()
	if !strings.Contains(view, "▹ @ Bob") || !strings.HasPrefix(timelineSide(rowOf(view, 120)), "▸") {
		t.Fatalf("the timeline has the keys: want its cursor ▸ and the list's ▹:\n%s", view)
	}
	d.keys("tab", "k") // the list: up to Team, not opened
	d.keys("tab", "tab")
	view = d.m.View()
	if !strings.Contains(view, "▸ @ Bob") || strings.Contains(view, "▸ # Team") {
		t.Errorf("back in the list, its cursor is not on the open conversation:\n%s", view)
	}
	if row := timelineSide(rowOf(view, 120)); !strings.HasPrefix(row, "▹") {
		t.Errorf("the list has the keys, yet the timeline's cursor row is %q", row)
	}
}

// timelineSide is the timeline pane's part of a screen line.
func timelineSide(line string) string {
	_, right, _ := strings.Cut(line, "││")
	return right
}
