package ui

import (
	"strings"
	"testing"
)

// At 60x20 the help box kept its borders only by cutting its top: the
// title, the top border and the close hint were off the screen, and the
// keys past the bottom could not be reached. Now every line of it is on
// the screen, and j scrolls the keys to the last one.
func TestHelpOnAShortScreenScrolls(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 60, 20)
	d.keys("?")
	view := d.m.View()
	for _, want := range []string{"╭", "Keys", "to close", "╰"} {
		if !strings.Contains(view, want) {
			t.Errorf("the help at 60x20 has no %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "find by msg ID") {
		t.Fatalf("all the keys fit at 60x20: nothing to scroll:\n%s", view)
	}
	for range 20 {
		d.keys("j")
	}
	if view := d.m.View(); !strings.Contains(view, "find by msg ID") || !strings.Contains(view, "Keys") {
		t.Errorf("j did not scroll the help to its last key:\n%s", view)
	}
	if d.m.overlay != ovHelp {
		t.Error("scrolling closed the help")
	}
}
