// Package picker chooses with type-ahead: a member of the open
// conversation as the viewer or as the second viewer of the compare view,
// or a context (a named deployment) to switch to.
package picker

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/components/lineinput"
)

// Model is the picker. It ends Closed, with Chosen the member picked (""
// when dismissed).
type Model struct {
	e             *common.Common
	forCompare    bool
	forContext    bool   // the choices are contexts: UserID the name, Nickname what it sets
	current       string // the context in use, marked * as `chatlens contexts` marks it
	title         string
	input         textinput.Model
	members       []store.Member
	shown         []int // indexes into members that pass the filter, best first
	cursor        int   // index into shown
	width, height int

	closed bool
	chosen string
}

var _ common.Component = (*Model)(nil)

// New offers members, prefer selected, under title; forCompare tells what
// the choice is for.
func New(e *common.Common, forCompare bool, title string, members []store.Member, prefer string) Model {
	p := Model{e: e, forCompare: forCompare, title: title, input: lineinput.NewTextInput(e.Theme)}
	p.input.Prompt = "type to filter: "
	p.input.Focus()
	p.SetMembers(members, prefer)
	return p
}

// Context is a named deployment offered by NewContexts: its name and what
// it sets (passwords masked).
type Context struct{ Name, About string }

// NewContexts offers contexts to switch to, current (the one in use)
// marked and the first other one selected.
func NewContexts(e *common.Common, title string, contexts []Context, current string) Model {
	ms := make([]store.Member, len(contexts))
	prefer := ""
	for i, c := range contexts {
		ms[i] = store.Member{UserID: c.Name, Nickname: c.About}
		if prefer == "" && c.Name != current {
			prefer = c.Name
		}
	}
	p := New(e, false, title, ms, prefer)
	p.forContext, p.current = true, current
	return p
}

// ForContext reports the choice is a context to switch to.
func (p *Model) ForContext() bool { return p.forContext }

// Closed reports the picker ended; Chosen is who was picked ("" when
// dismissed).
func (p *Model) Closed() bool { return p.closed }

func (p *Model) Chosen() string { return p.chosen }

// ForCompare reports the choice is the compare view's second viewer.
func (p *Model) ForCompare() bool { return p.forCompare }

// SetMembers replaces the choices and selects prefer if it is among them,
// else keeps what was selected.
func (p *Model) SetMembers(ms []store.Member, prefer string) {
	keep := prefer
	if keep == "" && p.cursor < len(p.shown) {
		keep = p.members[p.shown[p.cursor]].UserID
	}
	p.members = ms
	p.filter()
	for i, idx := range p.shown {
		if ms[idx].UserID == keep {
			p.cursor = i
		}
	}
}

func (p *Model) filter() {
	p.shown = common.FuzzyFilter(p.input.Value(), len(p.members), func(i int) []string {
		if p.forContext {
			return []string{p.members[i].UserID} // not the paths and hosts it sets
		}
		return []string{p.members[i].UserID, p.members[i].Nickname}
	})
	p.cursor = min(p.cursor, max(0, len(p.shown)-1))
}

// Update moves the choice, ends the picker, or types into the filter (and
// returns what the text input asks for: a paste).
func (p *Model) Update(msg tea.Msg) tea.Cmd {
	keys := p.e.Keys
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, keys.Dismiss):
			p.closed = true
			return nil
		case key.Matches(k, keys.ChoiceUp):
			p.cursor = max(0, p.cursor-1)
			return nil
		case key.Matches(k, keys.ChoiceDown):
			p.cursor = max(0, min(len(p.shown)-1, p.cursor+1))
			return nil
		case key.Matches(k, keys.Submit):
			p.closed = true
			if len(p.shown) > 0 {
				p.chosen = p.members[p.shown[p.cursor]].UserID
			} else {
				// Not a member now (left, the app admin, anyone): the typed
				// ID, as u takes it, so "why does u4 stop at 264" can be asked.
				p.chosen = strings.TrimSpace(p.input.Value())
			}
			return nil
		}
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	p.filter()
	return cmd
}

// SetSize takes the screen's width and the height of the panes it floats over.
func (p *Model) SetSize(width, height int) { p.width, p.height = width, height }

func (p *Model) View() string {
	th := p.e.Theme
	w := max(20, min(60, p.width-6))
	lines := []string{th.Title.Render(p.title), p.input.View()}
	if len(p.members) == 0 && !p.forContext {
		lines = append(lines, th.Muted.Render("no members known yet"))
	}
	if typed := strings.TrimSpace(p.input.Value()); typed != "" && len(p.shown) == 0 {
		none := "no member matches: " + common.KeyName(p.e.Keys.Submit) + " takes " + typed + " as a user ID"
		if p.forContext {
			none = "no context matches " + typed
		}
		lines = append(lines, th.Muted.Render(projection.Truncate(projection.SingleLine(none), w-2)))
	}
	rows := max(1, p.height-6)
	start := max(0, p.cursor-rows+1)
	for i := start; i < len(p.shown) && i < start+rows; i++ {
		mb := p.members[p.shown[i]]
		label := mb.UserID
		if p.forContext {
			label = p.contextLabel(mb)
		} else if mb.Nickname != "" {
			label += "  " + mb.Nickname
		}
		if mb.RoleLevel != 0 {
			label += "  (" + bucket.RoleName(mb.RoleLevel) + ")"
		}
		label = projection.Truncate(projection.SingleLine(label), w-2)
		if i == p.cursor {
			lines = append(lines, th.Selected.Render("▸ "+label))
		} else {
			lines = append(lines, "  "+label)
		}
	}
	return th.Dialog.Width(w + 2).Render(strings.Join(lines, "\n"))
}

// contextLabel is a context's row: * for the one in use, its name
// padded to the longest, what it sets.
func (p *Model) contextLabel(mb store.Member) string {
	width := 0
	for _, c := range p.members {
		width = max(width, projection.Width(c.UserID))
	}
	mark := "  "
	if mb.UserID == p.current {
		mark = "* "
	}
	return strings.TrimRight(mark+common.PadRight(mb.UserID, width)+"  "+mb.Nickname, " ")
}

func (p *Model) ShortHelp() []key.Binding {
	keys := p.e.Keys
	what := "view as"
	switch {
	case p.forCompare:
		what = "compare"
	case p.forContext:
		what = "switch"
	}
	return []key.Binding{common.Joined("choose", keys.ChoiceUp, keys.ChoiceDown), common.As(keys.Submit, what), common.As(keys.Dismiss, "cancel")}
}

func (p *Model) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }
