package timeline

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// compareView is the timeline while it compares two viewers: the keys that
// step between differences and switch "differences only", the scroll of
// that mode, and the drawing of its rows (compare.go). What the keys do is
// the model's (its queue, its scan); the view turns them into its keys and
// draws what the model holds, holding nothing of its own; its footer is
// the progress line, which names its keys (DiffProgress). In "differences
// only" the row keys step between differences in the model too.
type compareView struct{ t *Model }

func (t *Model) compare() compareView { return compareView{t} }

// handle takes the compare keys; handled says whether k was one, so the
// timeline moves as usual otherwise.
func (c compareView) handle(msg tea.Msg) (cmd tea.Cmd, handled bool) {
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
			return c.t.press(model.Key{Kind: b.kind}), true
		}
	}
	return nil, false
}

// SetSize keeps the cursor's difference on screen in "differences only".
func (c compareView) SetSize(_, height int) {
	if c.t.tl.Compare().Only() {
		c.settleDiffRows(height)
	}
}
