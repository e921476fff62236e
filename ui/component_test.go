package ui

import (
	"reflect"
	"testing"
)

// TestViewChangesNothing: drawing the screen moves nothing; the scroll is
// settled by the update that moved the cursor, so two draws are the same
// and the state after them is the state before.
func TestViewChangesNothing(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 30)
	d.open(chatAB)
	d.jump(5)
	d.keys("G") // the newest at the bottom: the top moves up to fill the screen
	// Copies of the list and the timeline: the same pointers, maps and
	// slices, so DeepEqual tells a field View moved.
	list, tl := d.m.list, *d.m.tl
	first := d.m.View()
	if !reflect.DeepEqual(list, d.m.list) || !reflect.DeepEqual(tl, *d.m.tl) {
		t.Errorf("View changed the state: list %+v, was %+v; timeline %+v, was %+v", d.m.list, list, *d.m.tl, tl)
	}
	if d.m.View() != first {
		t.Error("two draws of the same state differ")
	}
}
