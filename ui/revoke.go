package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// A revoke in a group waits for the members, since the revoker's role is
// written into the revoke record; the members are read on first need.

// askRevoke offers the revoke of the selected message once the members,
// and so the revoker's role, are known; outside groups the rule needs no
// member (and an ambiguous single-chat ID does not block it).
func (m *Model) askRevoke() tea.Cmd {
	t := m.tl
	if t.MembersKnown() || !store.IsGroupConversation(t.ID()) {
		m.askAction(actRevoke)
		return nil
	}
	m.revokeWaits = &pendingRevoke{cid: t.ID(), viewer: t.Viewer(), seq: t.Cursor()}
	m.setStatus("reading the members for the revoker's role…", false)
	return t.NeedMembers()
}

// membersLoaded gives the timeline its members, refreshes the picker's
// choices, and offers the revoke that waited for them.
func (m *Model) membersLoaded(msg timeline.MembersLoadedMsg) tea.Cmd {
	t := m.tl
	waits := m.revokeWaits
	m.revokeWaits = nil
	if t == nil {
		return nil
	}
	landed, cmd, err := t.TakeMembers(msg)
	switch {
	case !landed:
		return nil // a conversation already left
	case err != nil:
		if waits.stillWanted(t) {
			m.setStatus("revoke: cannot read the members: "+err.Error(), true)
		}
		return nil
	}
	if m.overlay == ovPicker {
		m.picker.SetMembers(t.PickerChoices(m.picker.ForCompare()), "")
	}
	if waits.stillWanted(t) && m.overlay == ovNone && !m.input.Open() && m.focus == paneTimeline {
		m.status = ""
		m.askAction(actRevoke)
	}
	return cmd
}

// pendingRevoke is a revoke waiting for the members: of which message, in
// which conversation, as whom.
type pendingRevoke struct {
	cid, viewer string
	seq         int64
}

// stillWanted: the user has not moved on since asking.
func (p *pendingRevoke) stillWanted(t *timeline.Model) bool {
	return p != nil && t != nil && p.cid == t.ID() && p.viewer == t.Viewer() && p.seq == t.Cursor()
}
