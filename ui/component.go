package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// component is one part of the screen (the list, the timeline, a dialog,
// the input): it takes the messages and keys the root routes to it, draws
// itself at the size it was last given, and names the keys it answers to
// (help.KeyMap), so every hint is drawn from the key map. View changes
// nothing: whatever scrolls is settled in Update or SetSize.
//
// A component that ends or asks for something beyond itself (a dialog
// answered, a conversation to open) says so in a result the root reads
// right after Update: the root acts in the same update, as it did before
// the keys moved here.
type component interface {
	help.KeyMap
	Update(msg tea.Msg) tea.Cmd
	View() string
	SetSize(width, height int)
}

// Every part of the screen is a component.
var (
	_ component = (*convList)(nil)
	_ component = (*timeline)(nil)
	_ component = compareView{}
	_ component = (*picker)(nil)
	_ component = (*confirmDialog)(nil)
	_ component = (*inspector)(nil)
	_ component = (*helpBox)(nil)
	_ component = (*logBox)(nil)
	_ component = (*lineInput)(nil)
	_ component = (*copyChoice)(nil)
)

// overlayComponent is the dialog or box over the panes, nil when none.
func (m *Model) overlayComponent() component {
	switch m.overlay {
	case ovHelp:
		return &m.helpBox
	case ovConfirm:
		return &m.confirm
	case ovInspector:
		return &m.inspector
	case ovPicker:
		return &m.picker
	case ovMsgLog:
		return &m.logBox
	case ovCopyChoice:
		return &m.copyChoice
	}
	return nil
}

// keyName is the key a hint names for b: its first single character key
// (j rather than down), else its first key.
func keyName(b key.Binding) string {
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

// joined is one hint for several bindings that do the same thing here
// ("?/esc close"), drawn from their help keys; it matches any of their keys.
func joined(desc string, bs ...key.Binding) key.Binding {
	var names, keys []string
	for _, b := range bs {
		if b.Enabled() {
			names = append(names, b.Help().Key)
			keys = append(keys, b.Keys()...)
		}
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(strings.Join(names, "/"), desc))
}

// as is b with another description: the same key doing this component's
// version of the action (enter: "view as" in the picker).
func as(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}
