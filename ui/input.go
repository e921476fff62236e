package ui

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/themes"
)

// inputFor is what the one-line input at the bottom is collecting.
type inputFor int

const (
	inNone inputFor = iota
	inFilter
	inViewAs
	inJump
	inSearch
	inFindID
	inTranscript
)

// lineInput is the one-line input at the bottom of the screen. It takes
// every key while open, so typing never fires an action; Submit and Dismiss
// end it, and the root reads the outcome with ended.
type lineInput struct {
	e       *common
	ti      textinput.Model
	purpose inputFor
	// selected: the input holds a value offered whole (the last search),
	// shown selected; the first key typed replaces it.
	selected bool
	width    int
	end      *inputEnd // set when Submit or Dismiss ended the input
}

// inputEnd is how an input ended: its purpose, its value, and whether it
// was submitted (else dismissed).
type inputEnd struct {
	purpose   inputFor
	value     string
	submitted bool
}

func newLineInput(e *common) lineInput {
	return lineInput{e: e, ti: newInput(e.theme)}
}

// newInput is a text input drawn with the theme only (textinput's
// placeholder and completion defaults are colours). Its cursor stays still:
// a blinking one would ask for a timer after every key and make no two
// frames alike.
func newInput(th themes.Theme) textinput.Model {
	in := textinput.New()
	in.PlaceholderStyle, in.CompletionStyle = th.Muted, th.Muted
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}

func (in *lineInput) open() bool { return in.purpose != inNone }

// start opens the input for a purpose; selected offers value whole.
func (in *lineInput) start(purpose inputFor, prompt, value string, selected bool) {
	in.purpose = purpose
	in.ti.Prompt = prompt
	in.ti.SetValue(value)
	in.ti.CursorEnd()
	in.ti.Focus()
	in.selected = selected
	in.end = nil
}

func (in *lineInput) value() string { return in.ti.Value() }

// ended returns how the input ended, once.
func (in *lineInput) ended() (inputEnd, bool) {
	e := in.end
	in.end = nil
	if e == nil {
		return inputEnd{}, false
	}
	return *e, true
}

// Update edits the value; every command textinput returns (ctrl+v reads
// the clipboard) is returned, and its reply, routed back here, lands.
func (in *lineInput) Update(msg tea.Msg) tea.Cmd {
	k, isKey := msg.(tea.KeyMsg)
	if !isKey {
		var cmd tea.Cmd
		in.ti, cmd = in.ti.Update(msg)
		return cmd
	}
	keys := in.e.keys
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
	case key.Matches(k, keys.Dismiss):
		in.finish(false)
		return nil
	case key.Matches(k, keys.Submit):
		in.finish(true)
		return nil
	}
	var cmd tea.Cmd
	in.ti, cmd = in.ti.Update(k)
	return cmd
}

func (in *lineInput) finish(submitted bool) {
	in.end = &inputEnd{purpose: in.purpose, value: in.ti.Value(), submitted: submitted}
	in.purpose = inNone
	in.ti.Blur()
}

func (in *lineInput) SetSize(width, _ int) { in.width = width }

func (in *lineInput) View() string {
	if in.selected {
		return lipgloss.NewStyle().MaxWidth(in.width).Render(in.ti.Prompt + in.e.theme.Selected.Render(projection.SingleLine(in.ti.Value())))
	}
	return lipgloss.NewStyle().MaxWidth(in.width).Render(in.ti.View())
}

func (in *lineInput) ShortHelp() []key.Binding {
	return []key.Binding{in.e.keys.Submit, in.e.keys.Dismiss}
}

func (in *lineInput) FullHelp() [][]key.Binding { return [][]key.Binding{in.ShortHelp()} }
