// Package confirm is the dialog that asks before a write, or explains why
// a write is refused.
package confirm

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"

	"github.com/chatlens/chatlens/ui/common"
)

// Dialog is what the dialog asks: Run is the write as a command, nil for a
// refusal (the dialog only explains).
type Dialog struct {
	Title string
	Lines []string
	Run   tea.Cmd
	Req   common.ReqID // the request number Run's reply carries
}

// Model is the dialog over the panes. It ends answered, confirmed telling
// which way (Answer).
type Model struct {
	Dialog
	e                   *common.Common
	width               int
	answered, confirmed bool
}

var _ common.Component = (*Model)(nil)

// New asks d.
func New(e *common.Common, d Dialog) Model { return Model{Dialog: d, e: e} }

// Answer reports whether the dialog was answered, and if so which way.
func (d *Model) Answer() (answered, confirmed bool) { return d.answered, d.confirmed }

func (d *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	switch keys := d.e.Keys; {
	case key.Matches(k, keys.Confirm):
		d.answered, d.confirmed = true, true
	case key.Matches(k, keys.Cancel):
		d.answered = true
	}
	return nil
}

func (d *Model) SetSize(width, _ int) { d.width = width }

func (d *Model) View() string {
	th := d.e.Theme
	w := max(20, min(70, d.width-6))
	lines := []string{th.Title.Render(projection.Truncate(d.Title, w)), ""}
	for _, l := range d.Lines {
		lines = append(lines, common.WrapWords(common.TextPresentation(projection.SingleLine(l)), w)...)
	}
	// The answers are the key map's, so a keys.json moving them moves
	// them here too.
	var ans []string
	for _, b := range d.ShortHelp() {
		ans = append(ans, b.Help().Key+": "+b.Help().Desc)
	}
	lines = append(lines, "", th.Accent.Render(strings.Join(ans, "   ")))
	return th.Dialog.Width(w + 2).Render(strings.Join(lines, "\n"))
}

func (d *Model) ShortHelp() []key.Binding {
	keys := d.e.Keys
	if d.Run == nil { // a refusal: nothing to confirm
		return []key.Binding{common.As(keys.Cancel, "close")}
	}
	return []key.Binding{keys.Confirm, keys.Cancel}
}

func (d *Model) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }
