package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// TestNoteAndSwitchOnOneReplySayTheNote: keys waiting behind a read are
// applied when it lands, in one update: V, then ] with no compare view
// ("not comparing"). The switch is made (the list's owner and the
// timeline's viewer both bob) and the status line keeps what the keys
// said, not "viewing as bob", whatever order the two messages arrive in.
func TestNoteAndSwitchOnOneReplySayTheNote(t *testing.T) {
	for _, noteFirst := range []bool{true, false} {
		noteAndSwitch(t, noteFirst)
	}
}

func noteAndSwitch(t *testing.T, noteFirst bool) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.readMembers()
	d.keys("V", "V") // to bob and back: both windows known, V switches as soon as the keys before it are applied
	if d.m.tl.Viewer() != "alice" {
		t.Fatalf("V V from alice views as %s", d.m.tl.Viewer())
	}
	d.keys(":")
	d.typeText("2024-05-01 09:10") // a date: its seq is found by a read, held back
	held := d.runHolding(d.sendOnly(keyMsg("enter")), func(msg tea.Msg) bool {
		_, note := msg.(timeline.NoteMsg)
		return !note
	})
	if len(held) != 1 {
		t.Fatalf("the date jump gave %d replies, want 1 held back", len(held))
	}
	d.keys("V", "]") // both wait behind the date; ] says "not comparing"
	if d.m.tl.Viewer() != "alice" {
		t.Fatalf("V switched to %s before the keys before it were applied", d.m.tl.Viewer())
	}
	// The reply's update; its note and its switch are delivered in the
	// order asked.
	var msgs []tea.Msg
	queue := []tea.Cmd{d.sendOnly(held[0])}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case timeline.NoteMsg, timeline.SwitchViewerMsg:
			msgs = append(msgs, msg)
		default:
			d.send(msg)
		}
	}
	if len(msgs) != 2 {
		t.Fatalf("the reply told the root %d things, want a note and a switch: %v", len(msgs), msgs)
	}
	if _, note := msgs[0].(timeline.NoteMsg); note != noteFirst {
		msgs[0], msgs[1] = msgs[1], msgs[0]
	}
	for _, msg := range msgs {
		d.send(msg)
	}
	if d.m.tl.Viewer() != "bob" || d.m.list.Owner() != "bob" {
		t.Errorf("note first %v: timeline as %s, list of %s; want bob for both", noteFirst, d.m.tl.Viewer(), d.m.list.Owner())
	}
	if !strings.HasPrefix(d.m.status, "not comparing") {
		t.Errorf("note first %v: status %q, want what ] said (not comparing ...)", noteFirst, d.m.status)
	}
}

// TestBurstSaysWhatItsLastKeySaid: in a burst each key speaks over the
// one before, as pressed one by one: ] with no compare view says "not
// comparing", and a k after it clears the line, however late the note of
// the ] arrives.
func TestBurstSaysWhatItsLastKeySaid(t *testing.T) {
	for _, c := range []struct {
		keys, want string
	}{{"]k", ""}, {"k]", "not comparing"}} {
		st, _ := newTestStore(t, false)
		seedSmall(t, st)
		opts, _ := testOptions(t, "alice")
		d := newDriver(t, st, opts, 120, 40)
		d.open(chatAB)
		d.send(burst(c.keys))
		if !strings.HasPrefix(d.m.status, c.want) || c.want == "" && d.m.status != "" {
			t.Errorf("burst %q: status %q, want %q", c.keys, d.m.status, c.want)
		}
	}
}

// TestLateSwitchOfALeftConversationIsDropped: V before the members are
// read switches once they are; when that switch reaches the root after
// the user left for another conversation, the list and the new timeline
// stay alice's.
func TestLateSwitchOfALeftConversationIsDropped(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	held := d.runHolding(d.sendOnly(keyMsg("V")), func(msg tea.Msg) bool {
		_, ok := msg.(timeline.SwitchViewerMsg)
		return ok
	})
	if len(held) != 1 {
		t.Fatalf("V before the members gave %d switches, want 1 held back", len(held))
	}
	d.keys("esc")
	d.open(chatT)
	d.send(held[0])
	if d.m.tl.Viewer() != "alice" || d.m.list.Owner() != "alice" {
		t.Errorf("a switch of %s landed in %s: timeline as %s, list of %s", chatAB, chatT, d.m.tl.Viewer(), d.m.list.Owner())
	}
}
