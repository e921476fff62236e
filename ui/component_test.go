package ui

import "testing"

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
	type state struct {
		cursor, top int64
		offset      int
	}
	snap := func() state { return state{d.m.tl.cursor, d.m.tl.top, d.m.list.offset} }
	before := snap()
	first := d.m.View()
	if after := snap(); after != before {
		t.Errorf("View changed the state: %+v, was %+v", after, before)
	}
	if d.m.View() != first {
		t.Error("two draws of the same state differ")
	}
}
