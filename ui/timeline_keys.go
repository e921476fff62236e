package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// statusNote is a line for the status bar from a component; the root
// shows it right after routing to the component (takeNote).
type statusNote struct {
	text  string
	isErr bool
}

func (t *timeline) say(text string, isErr bool) { t.note = &statusNote{text, isErr} }

// takeNote shows what the timeline had to say.
func (m *Model) takeNote() {
	if m.tl != nil && m.tl.note != nil {
		m.setStatus(m.tl.note.text, m.tl.note.isErr)
		m.tl.note = nil
	}
}

// Update takes the timeline's own keys: moving the cursor (over runs of
// holes and gaps as one row), to the next message, the compare view's
// keys, bucket boundaries. What opens a dialog or an input, writes, or
// changes the viewer is the root's (timelineKey).
func (t *timeline) Update(msg tea.Msg) tea.Cmd {
	if cmd, ok := t.compare().handle(msg); ok {
		return cmd
	}
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := t.e.Keys
	t.tl.SetPage(max(1, t.height-2))
	for _, b := range []struct {
		binding key.Binding
		kind    model.Kind
	}{
		{keys.Up, model.Up}, {keys.Down, model.Down}, {keys.NextMessage, model.NextMessage}, {keys.PrevMessage, model.PrevMessage},
		{keys.PageUp, model.PageUp}, {keys.PageDown, model.PageDown}, {keys.Top, model.Top}, {keys.Bottom, model.Bottom},
		{keys.Boundaries, model.Boundaries},
	} {
		if key.Matches(k, b.binding) {
			return t.press(model.Key{Kind: b.kind})
		}
	}
	return nil
}

// ShortHelp is the footer while the timeline has the focus (comparing,
// the footer is the compare view's progress line, which names its keys).
func (t *timeline) ShortHelp() []key.Binding { return t.e.Keys.TimelineHelp() }

func (t *timeline) FullHelp() [][]key.Binding { return [][]key.Binding{t.ShortHelp()} }
