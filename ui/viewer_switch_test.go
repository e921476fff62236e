package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestViewerSwitchChangesEverythingAtOnce: V, v and u change the list's
// title, the timeline's header, the unread counts and the read line in the
// same update (V once the members it cycles through are read, u once the
// store has answered that the ID is a user's); nothing of the old viewer
// stays beside the new one's name.
func TestViewerSwitchChangesEverythingAtOnce(t *testing.T) {
	for _, c := range []struct {
		name string
		keys func(d *driver) tea.Cmd
	}{
		{"V", func(d *driver) tea.Cmd {
			d.readMembers() // V cycles the picker's list, read first
			return d.sendOnly(keyMsg("V"))
		}},
		{"v", func(d *driver) tea.Cmd {
			d.keys("v")
			d.typeText("bob")
			return d.sendOnly(keyMsg("enter"))
		}},
		{"u", func(d *driver) tea.Cmd {
			d.keys("u")
			d.typeText("bob")
			// A typed ID is looked up first: the switch is the update
			// of the store's answer.
			held := d.runHolding(d.sendOnly(keyMsg("enter")), func(msg tea.Msg) bool {
				_, ok := msg.(viewAsCheckedMsg)
				return ok
			})
			if len(held) != 1 {
				t.Fatalf("u: %d answers on the ID typed, want 1", len(held))
			}
			return d.sendOnly(held[0])
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, _ := newTestStore(t, false)
			seedSmall(t, st)
			opts, _ := testOptions(t, "alice")
			d := newDriver(t, st, opts, 120, 40)
			d.open(chatAB)
			before := d.m.View()
			for _, want := range []string{"Conversations of alice", "as Alice", "Bob (20)", "Alice read up to here (seq 100)"} {
				if !strings.Contains(before, want) {
					t.Fatalf("before the switch %q is missing:\n%s", want, before)
				}
			}
			// The key's own update: bob's name everywhere, alice's counts
			// and read line gone, before any reply.
			cmd := c.keys(d)
			mid := d.m.View()
			for _, want := range []string{"Conversations of bob", "as Bob"} {
				if !strings.Contains(mid, want) {
					t.Errorf("in the switch's update %q is missing:\n%s", want, mid)
				}
			}
			for _, stale := range []string{"Conversations of alice", "(20)", "Alice read up to here"} {
				if strings.Contains(mid, stale) {
					t.Errorf("in the switch's update alice's %q is still drawn:\n%s", stale, mid)
				}
			}
			// Bob's replies: his count and his read line.
			d.run(cmd)
			after := d.m.View()
			for _, want := range []string{"Conversations of bob", "as Bob", "Alice (2)", "Bob read up to here (seq 118)"} {
				if !strings.Contains(after, want) {
					t.Errorf("after the replies %q is missing:\n%s", want, after)
				}
			}
		})
	}
}

// The title names a single chat as the viewer's list does: after V from
// alice to bob it is named after alice, not still after bob.
func TestTimelineTitleFollowsTheViewer(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 100, 30)
	d.open(chatAB)
	if view := d.m.View(); !strings.Contains(view, "│Bob  "+chatAB+"  as Alice ") {
		t.Fatalf("as alice the chat should be named Bob:\n%s", view)
	}
	d.keys("V")
	if view := d.m.View(); !strings.Contains(view, "│Alice  "+chatAB+"  as Bob ") {
		t.Fatalf("after V to bob the chat should be named Alice:\n%s", view)
	}
}
