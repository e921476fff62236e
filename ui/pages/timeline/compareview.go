package timeline

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// Compare is the timeline while it compares two viewers: the keys that
// step between differences and switch "differences only", the scroll of
// that mode, and the drawing of its rows (compare.go). What the keys do is
// the model's (its queue, its scan); the view turns them into its keys and
// draws what the model holds, holding nothing of its own; its footer is
// the progress line, which names its keys (Progress). In "differences
// only" the row keys step between differences in the model too.
type Compare struct{ t *Model }

// Compare is the page's compare view.
func (t *Model) Compare() Compare { return Compare{t} }

// handle takes the compare keys; handled says whether k was one, so the
// timeline moves as usual otherwise.
func (c Compare) handle(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil, false
	}
	keys := c.t.e.Keys
	for _, b := range []struct {
		binding key.Binding
		kind    model.Kind
	}{{keys.NextDiff, model.NextDiff}, {keys.PrevDiff, model.PrevDiff}, {keys.DiffOnly, model.DiffOnly}} {
		if key.Matches(k, b.binding) {
			c.t.tl.SetPage(max(1, c.t.height-2))
			return c.t.load.press(model.Key{Kind: b.kind}), true
		}
	}
	return nil, false
}

// SetSize keeps the cursor's difference on screen in "differences only".
func (c Compare) SetSize(_, height int) {
	if c.t.tl.Compare().Only() {
		c.settleDiffRows(height)
	}
}

// Toggle turns the compare view off, or on: in a single chat
// against its other user; else pick says the root is to ask whom (the
// picker, SetCompare), cmd reading the members meanwhile.
func (c Compare) Toggle() (cmd tea.Cmd, pick bool) {
	t := c.t
	if peer := t.Viewers().peerOf(t.viewer); peer != "" {
		// A single chat has one other member: no choice to make; the
		// model turns it on or off once the keys before it are applied.
		t.lastCompared = peer
		return t.load.press(model.Key{Kind: model.ToggleCompare, View: model.View{Viewer: peer, At: t.Moment().main().At}}), false
	}
	if t.Compare().With() != "" {
		return t.Compare().Stop(), false
	}
	return t.NeedMembers(), true
}

// Set turns the compare view on against id (at the moment shown, if
// any), once the keys before are applied and their window is read: seqs
// outside it are what they cannot see at all.
func (c Compare) Set(id string) tea.Cmd {
	t := c.t
	t.lastCompared = id
	return t.load.press(model.Key{Kind: model.CompareOn, View: model.View{Viewer: id, At: t.Moment().main().At}})
}

// Stop leaves the compare view, once the keys before are applied.
func (c Compare) Stop() tea.Cmd {
	t := c.t
	return t.load.press(model.Key{Kind: model.CompareOff})
}
