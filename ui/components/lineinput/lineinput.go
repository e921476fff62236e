// Package lineinput is the one-line input at the bottom of the screen.
package lineinput

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"strings"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
)

// Purpose is what the input is collecting, as its owner numbers them; the
// zero Purpose is none: the input is closed.
type Purpose int

// Model is the one-line input. It takes every key while open, so typing
// never fires an action; Submit and Dismiss end it, and the owner reads the
// outcome with Ended.
type Model struct {
	e       *common.Common
	ti      textinput.Model
	purpose Purpose
	// selected: the input holds a value offered whole (the last search),
	// shown selected; the first key typed replaces it.
	selected bool
	width    int
	end      *End // set when Submit or Dismiss ended the input
	// tab goes through the suggestions that start with what was typed
	// before the first tab (typed), offered the one at turn.
	suggestions    []string
	typed, offered string
	turn           int
}

var _ common.Component = (*Model)(nil)

// End is how an input ended: its purpose, its value, and whether it was
// submitted (else dismissed).
type End struct {
	Purpose   Purpose
	Value     string
	Submitted bool
}

func New(e *common.Common) Model {
	return Model{e: e, ti: NewTextInput(e.Theme)}
}

// NewTextInput is a text input drawn with the theme only (textinput's
// placeholder and completion defaults are colours). Its cursor stays still:
// a blinking one would ask for a timer after every key and make no two
// frames alike.
func NewTextInput(th themes.Theme) textinput.Model {
	in := textinput.New()
	in.PlaceholderStyle, in.CompletionStyle = th.Muted, th.Muted
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}

// Open reports the input collecting something.
func (in *Model) Open() bool { return in.purpose != 0 }

// Purpose is what the open input collects.
func (in *Model) Purpose() Purpose { return in.purpose }

// Start opens the input for a purpose; selected offers value whole.
func (in *Model) Start(purpose Purpose, prompt, value string, selected bool) {
	in.purpose = purpose
	in.ti.Prompt = prompt
	in.ti.SetValue(projection.SingleLine(value))
	in.ti.CursorEnd()
	in.ti.Focus()
	in.selected = selected
	in.end = nil
	in.ti.ShowSuggestions = false
	in.ti.SetSuggestions(nil)
	in.suggestions, in.offered = nil, ""
}

// Suggest offers completions of the whole value: the rest of the first
// that starts with what is typed is shown muted, tab takes it and each
// tab after it the next (↓ and ↑ go through them too).
func (in *Model) Suggest(values []string) {
	in.ti.ShowSuggestions = len(values) > 0
	in.ti.SetSuggestions(values)
	in.suggestions = values
}

// complete is tab: the first suggestion that starts with what is typed,
// or, right after a tab, the next of those that start with what was typed
// before it, round to the first.
func (in *Model) complete() {
	if in.offered == "" || in.ti.Value() != in.offered {
		in.typed, in.turn = in.ti.Value(), -1
	}
	var matches []string
	for _, s := range in.suggestions {
		if strings.HasPrefix(strings.ToLower(s), strings.ToLower(in.typed)) {
			matches = append(matches, s)
		}
	}
	if len(matches) == 0 {
		return
	}
	in.turn = (in.turn + 1) % len(matches)
	in.offered = matches[in.turn]
	in.ti.SetValue(in.offered)
	in.ti.CursorEnd()
}

// Value is what is typed so far.
func (in *Model) Value() string { return in.ti.Value() }

// Ended returns how the input ended, once.
func (in *Model) Ended() (End, bool) {
	e := in.end
	in.end = nil
	if e == nil {
		return End{}, false
	}
	return *e, true
}

// Update edits the value; every command textinput returns (ctrl+v reads
// the clipboard) is returned, and its reply, routed back here, lands.
func (in *Model) Update(msg tea.Msg) tea.Cmd {
	k, isKey := msg.(tea.KeyMsg)
	if !isKey {
		var cmd tea.Cmd
		in.ti, cmd = in.ti.Update(msg)
		in.drawable() // a paste read from the clipboard
		return cmd
	}
	keys := in.e.Keys
	if in.selected {
		in.selected = false
		switch k.Type {
		case tea.KeyRunes, tea.KeySpace:
			in.ti.SetValue("") // the typed key starts a new value
		case tea.KeyBackspace, tea.KeyDelete, tea.KeyCtrlU:
			in.ti.SetValue("")
			return nil
		}
	}
	switch {
	case k.Type == tea.KeyTab && len(in.suggestions) > 0:
		in.complete()
		return nil
	case key.Matches(k, keys.Dismiss):
		in.finish(false)
		return nil
	case key.Matches(k, keys.Submit):
		in.finish(true)
		return nil
	}
	var cmd tea.Cmd
	in.ti, cmd = in.ti.Update(k)
	in.drawable()
	return cmd
}

// drawable keeps the value as message rows draw text (projection.SingleLine):
// a skin tone modifier or an emoji selector after a narrow character is
// left out, a bidi control shows as <U+…>. Terminals disagree on those
// widths (tmux draws 👍🏽 in four cells where the layout counts two), and a
// prompt drawn wider than measured scrolls the whole screen up a line. A
// search then looks for what rows show.
func (in *Model) drawable() {
	v := in.ti.Value()
	s := projection.SingleLine(v)
	if s == v {
		return
	}
	pos := min(in.ti.Position(), len([]rune(v)))
	before := projection.SingleLine(string([]rune(v)[:pos]))
	in.ti.SetValue(s)
	in.ti.SetCursor(len([]rune(before)))
}

func (in *Model) finish(submitted bool) {
	in.end = &End{Purpose: in.purpose, Value: in.ti.Value(), Submitted: submitted}
	in.purpose = 0
	in.ti.Blur()
}

func (in *Model) SetSize(width, _ int) { in.width = width }

func (in *Model) View() string {
	if in.selected {
		return lipgloss.NewStyle().MaxWidth(in.width).Render(in.ti.Prompt + in.e.Theme.Selected.Render(projection.SingleLine(in.ti.Value())))
	}
	return lipgloss.NewStyle().MaxWidth(in.width).Render(in.ti.View())
}

func (in *Model) ShortHelp() []key.Binding {
	return []key.Binding{in.e.Keys.Submit, in.e.Keys.Dismiss}
}

func (in *Model) FullHelp() [][]key.Binding { return [][]key.Binding{in.ShortHelp()} }
