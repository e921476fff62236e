package timeline

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// compareView is the timeline while it compares two viewers: the keys that
// step between differences and switch "differences only", the rows of that
// mode and its scroll. It works on the timeline's state (the compare state
// lives with the buckets it is read from), so it is a view of the timeline,
// made where it is used; the timeline draws it (View) and its footer is
// the progress line, which names its keys (DiffProgress).
type compareView struct{ t *Model }

func (t *Model) compare() compareView { return compareView{t} }

// handle takes the compare keys; handled says whether k was one, so the
// timeline moves as usual otherwise.
func (c compareView) handle(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil, false
	}
	t, keys := c.t, c.t.e.Keys
	if t.compareAs != "" && t.diffOnly {
		// Every row is a difference: moving steps between them.
		page := max(1, t.height-2)
		switch {
		case key.Matches(k, keys.Up):
			return c.diffOnlyMove(-1), true
		case key.Matches(k, keys.Down):
			return c.diffOnlyMove(1), true
		case key.Matches(k, keys.PageUp):
			return c.diffOnlyMove(-page), true
		case key.Matches(k, keys.PageDown):
			return c.diffOnlyMove(page), true
		case key.Matches(k, keys.HalfPageUp):
			return c.diffOnlyMove(-max(1, page/2)), true
		case key.Matches(k, keys.HalfPageDown):
			return c.diffOnlyMove(max(1, page/2)), true
		case key.Matches(k, keys.Top):
			return c.diffOnlyMove(-len(t.diffs.runs)), true
		case key.Matches(k, keys.Bottom):
			return c.diffOnlyMove(len(t.diffs.runs)), true
		}
	}
	switch {
	case key.Matches(k, keys.NextDiff):
		return c.stepDiff(1, true), true
	case key.Matches(k, keys.PrevDiff):
		return c.stepDiff(-1, true), true
	case key.Matches(k, keys.DiffOnly):
		return c.toggleDiffOnly(), true
	}
	return nil, false
}

// SetSize keeps the cursor's difference on screen in "differences only".
func (c compareView) SetSize(_, height int) {
	if c.t.compareAs != "" && c.t.diffOnly {
		c.t.settleDiffRows(height)
	}
}

// stepDiff moves to the next difference older (dir < 0) or newer, wrapping
// at the ends when wrap is set; while the scan runs, a step that finds
// nothing yet waits for it.
func (c compareView) stepDiff(dir int, wrap bool) tea.Cmd {
	t := c.t
	if t.compareAs == "" {
		t.say("not comparing: "+t.e.Keys.Compare.Help().Key+" to compare with another viewer", true)
		return nil
	}
	d := &t.diffs
	if r, ok := t.diffTarget(dir); ok {
		return t.jumpTo(r.from)
	}
	switch {
	case d.scanning:
		d.pending = dir
		t.say("looking for differences…", false)
		return nil
	case len(d.runs) == 0 && t.beyondCount() > 0:
		// They have no row to move to: the note above the rows is theirs.
		t.say("the only differences: "+strings.Join(t.beyondNotes(), "; "), false)
		return nil
	case len(d.runs) == 0:
		t.say(fmt.Sprintf("%s and %s see every seq alike", t.memberName(t.viewer), t.memberName(t.compareAs)), false)
		return nil
	case !wrap:
		return nil
	}
	if dir < 0 {
		t.say("no older difference: wrapped to the newest", false)
		return t.jumpTo(d.runs[len(d.runs)-1].from)
	}
	t.say("no newer difference: wrapped to the oldest", false)
	return t.jumpTo(d.runs[0].from)
}

// toggleDiffOnly switches "differences only" and puts the cursor on one.
func (c compareView) toggleDiffOnly() tea.Cmd {
	t := c.t
	if t.compareAs == "" {
		t.say("not comparing: "+t.e.Keys.Compare.Help().Key+" to compare with another viewer", true)
		return nil
	}
	t.diffOnly = !t.diffOnly
	if !t.diffOnly || t.diffs.runAt(t.cursor) >= 0 {
		return nil
	}
	if _, ok := t.diffTarget(-1); ok {
		return c.stepDiff(-1, false)
	}
	return c.stepDiff(1, false)
}

// diffOnlyMove moves between the rows of "differences only": each row is a
// difference, so up and down step between them.
func (c compareView) diffOnlyMove(delta int) tea.Cmd {
	t := c.t
	runs := t.diffs.runs
	if len(runs) == 0 {
		return nil
	}
	i := t.diffs.runAt(t.cursor)
	if i < 0 {
		dir := -1
		if delta > 0 {
			dir = 1
		}
		return c.stepDiff(dir, false)
	}
	i = max(0, min(len(runs)-1, i+delta))
	return t.jumpTo(runs[i].from)
}
