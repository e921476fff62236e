package ui

import (
	"strings"
	"testing"
)

// TestViewerBurstCyclesThePickersList: V V in one burst, before the
// members are read, views as whom two single presses do: the picker's list
// (the members, highest role first: alice, carol, bob), never the senders
// known before it is read (before: carol, the second of a list by ID).
func TestViewerBurstCyclesThePickersList(t *testing.T) {
	want := ""
	for _, burstOf := range []bool{false, true} {
		st, _ := newTestStore(t, false)
		seedSmall(t, st)
		opts, _ := testOptions(t, "alice")
		d := newDriver(t, st, opts, 120, 40)
		d.open(chatT)
		if burstOf {
			d.send(burst("VV"))
		} else {
			d.keys("V")
			d.keys("V")
		}
		got := d.m.tl.Viewer()
		if got != "bob" {
			t.Errorf("V V (burst %v) from alice: viewing as %s, want bob (alice, carol, bob)", burstOf, got)
		}
		if want != "" && got != want {
			t.Errorf("a burst views as %s, single presses as %s", got, want)
		}
		want = got
		if !strings.Contains(d.m.View(), "as Bob") {
			t.Errorf("the header does not name bob:\n%s", d.m.View())
		}
	}
}
