package timeline

import (
	"github.com/chatlens/chatlens/ui/pages/timeline/model"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/common"

	"fmt"

	"github.com/chatlens/chatlens/projection"
)

// Update takes the timeline's own keys: moving the cursor (over runs of
// holes and gaps as one row), to the next message, the compare view's
// keys, bucket boundaries. What opens a dialog or an input, writes, or
// changes the viewer is the root's (timelineKey).
func (t *Model) Update(msg tea.Msg) tea.Cmd {
	if cmd, ok := t.Compare().handle(msg); ok {
		return cmd
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := t.e.Keys
	if key.Matches(k, keys.Now) {
		return t.Moment().Clear()
	}
	t.tl.SetPage(max(1, t.height-2))
	for _, b := range []struct {
		binding key.Binding
		kind    model.Kind
	}{
		{keys.Up, model.Up}, {keys.Down, model.Down}, {keys.NextMessage, model.NextMessage}, {keys.PrevMessage, model.PrevMessage},
		{keys.PageUp, model.PageUp}, {keys.PageDown, model.PageDown}, {keys.Top, model.Top}, {keys.Bottom, model.Bottom},
		{keys.HalfPageUp, model.HalfPageUp}, {keys.HalfPageDown, model.HalfPageDown},
		{keys.Boundaries, model.Boundaries},
	} {
		if key.Matches(k, b.binding) {
			return t.load.press(model.Key{Kind: b.kind})
		}
	}
	return nil
}

// ShortHelp is the footer while the timeline has the focus (comparing,
// the footer is the compare view's progress line, which names its keys).
func (t *Model) ShortHelp() []key.Binding { return t.e.Keys.TimelineHelp() }

func (t *Model) FullHelp() [][]key.Binding { return [][]key.Binding{t.ShortHelp()} }

// NothingUnderCursor reports that a key acting on the row under the
// cursor (a write, i, y, T) has nothing to act on, and why (the command
// saying it): the viewer is shown no row, or "differences only" draws
// none there.
func (t *Model) NothingUnderCursor() (why tea.Cmd, nothing bool) {
	keys := t.e.Keys
	switch {
	case t.win.PulledNothing() && t.Compare().With() == "":
		return say(t, fmt.Sprintf("%s is shown nothing of %s (%s); %s to view as someone else",
			projection.SingleLine(t.viewer), projection.SingleLine(t.cid), projection.SingleLine(t.win.UnpulledReason(t.viewer)), common.KeyName(keys.ViewAsAny)), false), true
	case t.tl.Compare().Only() && t.tl.Compare().RunAt(t.tl.Cursor()) < 0:
		// "Differences only" draws no row under the cursor (none found, or
		// none yet): a row key would act on a seq the screen does not show.
		return say(t, fmt.Sprintf("no difference under the cursor (seq %d is not shown); %s for all rows", t.tl.Cursor(), common.KeyName(keys.DiffOnly)), false), true
	}
	return nil, false
}
