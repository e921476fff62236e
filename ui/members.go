package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// membersLoaded gives the timeline its members and refreshes the
// picker's choices.
func (m *Model) membersLoaded(msg timeline.MembersLoadedMsg) tea.Cmd {
	t := m.tl
	if t == nil {
		return nil
	}
	landed, cmd, err := t.TakeMembers(msg)
	if !landed || err != nil {
		return nil // a conversation already left, or no members to show
	}
	if m.overlay == ovPicker {
		m.picker.SetMembers(t.PickerChoices(m.picker.ForCompare()), "")
	}
	return cmd
}
