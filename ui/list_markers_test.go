package ui

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/projection"
)

// TestNotificationRowsHaveAMarkOfTheirOwn: a notification conversation in
// the list was marked `!`, the timeline's mark of a slot that breaks the
// contract; it now has `~`, one cell, and `!` still marks the broken slot.
func TestNotificationRowsHaveAMarkOfTheirOwn(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	seedNotices(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 100, 30)
	for _, cid := range []string{"n_team", "n_alice_bob"} {
		row := ""
		for _, l := range strings.Split(d.m.View(), "\n") {
			if strings.Contains(l, cid+" ·") {
				row = l
			}
		}
		row = strings.TrimPrefix(row, "│")
		before, _, _ := strings.Cut(row, cid)
		if before != "  ~ " || projection.Width(before) != 4 {
			t.Errorf("the list row of %s is %q, want it marked ~ in one cell, its name where a chat's is", cid, row)
		}
	}
	d.open(chatAB)
	d.jump(115) // the seed's slot whose seq disagrees with it
	if row := rowOf(d.m.View(), 115); !strings.Contains(row, "!") {
		t.Errorf("the broken slot 115 is drawn %q, without its ! mark", row)
	}
}
