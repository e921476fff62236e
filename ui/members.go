package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
)

// The members of the open conversation are read on first need, never on
// open: the viewer picker and cycling start with the people already known
// (the list's owner and peer, the senders of held messages) and take the
// full list when it arrives; a revoke waits for it, since the revoker's role
// is written into the revoke record.

// needMembers starts reading the members unless they are read or on their way.
func (t *timeline) needMembers() tea.Cmd {
	if t.membersAt != membersUnread {
		return nil
	}
	t.membersAt = membersLoading
	t.membersReq = t.e.NewReq()
	// The viewer settles a single-chat ID whose user IDs contain "_".
	e, req, cid, viewer := t.e, t.membersReq, t.cid, t.viewer
	return func() tea.Msg {
		ms, err := e.Store.MembersFor(e.Ctx, cid, viewer)
		return membersLoadedMsg{req: req, members: ms, err: err}
	}
}

func (m *Model) membersLoaded(msg membersLoadedMsg) tea.Cmd {
	t := m.tl
	waits := m.revokeWaits
	m.revokeWaits = nil
	if t == nil || msg.req != t.membersReq {
		return nil // a conversation already left
	}
	t.membersReq = 0
	if msg.err != nil {
		t.membersAt = membersUnread // the next need tries again
		if waits.stillWanted(t) {
			m.setStatus("revoke: cannot read the members: "+msg.err.Error(), true)
		}
		return nil
	}
	t.members, t.membersAt = msg.members, membersRead
	cmd := t.after(t.tl.KnowMembers(t.choiceIDs())) // V presses waiting on them
	if m.overlay == ovPicker {
		m.picker.SetMembers(t.pickerChoices(m.picker.ForCompare()), "")
	}
	if waits.stillWanted(t) && m.overlay == ovNone && !m.input.Open() && m.focus == paneTimeline {
		m.status = ""
		m.askAction(actRevoke)
	}
	return cmd
}

// askRevoke offers the revoke of the selected message once the members,
// and so the revoker's role, are known; outside groups the rule needs no
// member (and an ambiguous single-chat ID does not block it).
func (m *Model) askRevoke() tea.Cmd {
	if m.tl.membersAt == membersRead || !store.IsGroupConversation(m.tl.cid) {
		m.askAction(actRevoke)
		return nil
	}
	m.revokeWaits = &pendingRevoke{cid: m.tl.cid, viewer: m.tl.viewer, seq: m.tl.cursor}
	m.setStatus("reading the members for the revoker's role…", false)
	return m.tl.needMembers()
}

// pendingRevoke is a revoke waiting for the members: of which message, in
// which conversation, as whom.
type pendingRevoke struct {
	cid, viewer string
	seq         int64
}

// stillWanted: the user has not moved on since asking.
func (p *pendingRevoke) stillWanted(t *timeline) bool {
	return p != nil && t != nil && p.cid == t.cid && p.viewer == t.viewer && p.seq == t.cursor
}
