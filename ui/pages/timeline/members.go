package timeline

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
)

// The members of the open conversation are read on first need, never on
// open: the viewer picker and cycling start with the people already known
// (the list's owner and peer, the senders of held messages) and take the
// full list when it arrives; a revoke waits for it, since the revoker's role
// is written into the revoke record.

// NeedMembers starts reading the members unless they are read or on their way.
func (t *Model) NeedMembers() tea.Cmd {
	if t.membersAt != membersUnread {
		return nil
	}
	t.membersAt = membersLoading
	t.membersReq = t.e.NewReq()
	// The viewer settles a single-chat ID whose user IDs contain "_".
	e, req, cid, viewer := t.e, t.membersReq, t.cid, t.viewer
	return func() tea.Msg {
		ms, err := e.Store.MembersFor(e.Ctx, cid, viewer)
		return MembersLoadedMsg{req: req, members: ms, err: err}
	}
}

// TakeMembers takes the members read for this timeline (landed false: a
// reply for a conversation already left); err says why they could not be
// read, and the next need tries again; cmd applies the V presses that
// waited for them.
func (t *Model) TakeMembers(msg MembersLoadedMsg) (landed bool, cmd tea.Cmd, err error) {
	if msg.req != t.membersReq {
		return false, nil, nil
	}
	t.membersReq = 0
	if msg.err != nil {
		t.membersAt = membersUnread
		return true, nil, msg.err
	}
	t.members, t.membersAt = msg.members, membersRead
	return true, t.load.after(t.tl.Know().Members(t.Viewers().choiceIDs())), nil
}

// MembersKnown reports the members read, so the revoker's role is known.
func (t *Model) MembersKnown() bool { return t.membersAt == membersRead }

// Members are the members read, highest role first (none until read).
func (t *Model) Members() []store.Member { return t.members }
