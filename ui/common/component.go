package common

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Component is one part of the screen (the list, the timeline, a dialog,
// the input): it takes the messages and keys the root routes to it, draws
// itself at the size it was last given, and names the keys it answers to
// (help.KeyMap), so every hint is drawn from the key map. View changes
// nothing: whatever scrolls is settled in Update or SetSize.
//
// A component that ends or asks for something beyond itself (a dialog
// answered, a conversation to open) says so in a result the root reads
// right after Update: the root acts in the same update. What a component
// learns on its own (a line for the status bar, a reply's outcome) it sends
// as a message its command returns (NoteMsg): the root handles it when it
// arrives, and polls nothing.
type Component interface {
	help.KeyMap
	Update(msg tea.Msg) tea.Cmd
	View() string
	SetSize(width, height int)
}

// KeyName is the key a hint names for b: its first single character key
// (j rather than down), else its first key.
func KeyName(b key.Binding) string {
	for _, k := range b.Keys() {
		if len([]rune(k)) == 1 {
			return k
		}
	}
	if ks := b.Keys(); len(ks) > 0 {
		return ks[0]
	}
	return ""
}

// Joined is one hint for several bindings that do the same thing here
// ("?/esc close"), drawn from their help keys; it matches any of their keys.
func Joined(desc string, bs ...key.Binding) key.Binding {
	var names, keys []string
	for _, b := range bs {
		if b.Enabled() {
			names = append(names, b.Help().Key)
			keys = append(keys, b.Keys()...)
		}
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(strings.Join(names, "/"), desc))
}

// As is b with another description: the same key doing this component's
// version of the action (enter: "view as" in the picker).
func As(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// Note is a line for the status bar from a component.
type Note struct {
	Text  string
	IsErr bool
}

// NoteMsg is a Note sent to the root. At is when it was said (a request
// number, so later than every status set before it): commands' messages
// arrive in no set order, and a note older than the status shown is
// dropped, as a late reply is.
type NoteMsg struct {
	Note
	At ReqID
}

// Say is the command sending text to the status bar, said now.
func (e *Common) Say(text string, isErr bool) tea.Cmd {
	msg := NoteMsg{Note{Text: text, IsErr: isErr}, e.NewReq()}
	return func() tea.Msg { return msg }
}
