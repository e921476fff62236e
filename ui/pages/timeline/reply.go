package timeline

import tea "github.com/charmbracelet/bubbletea"

// Reply takes a reply to one of the timeline's commands (ok false: not
// one): buckets read, a window, a search or diff step, a jump resolved in
// the background, readers, follow's ticks and polls, a transcript written.
// A reply for a view, a search or a viewer already left is dropped by its
// request number. What it has to say is in TakeNote; the members are the
// root's to take (TakeMembers), since a revoke may wait for them.
func (t *Model) Reply(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case bucketsLoadedMsg:
		return t.loaded(msg), true
	case windowLoadedMsg:
		return t.TakeWindow(msg.req, msg.viewer, msg.win, msg.err), true
	case searchStepMsg:
		return t.searchStepped(msg), true
	case scanLandedMsg:
		if msg.req != t.req {
			return nil, true // read before a reload
		}
		return t.after(t.tl.Land(msg.landed)), true
	case jumpResolvedMsg:
		return t.jumpResolved(msg), true
	case readersLoadedMsg:
		t.readersLoaded(msg)
		return nil, true
	case toldLoadedMsg:
		t.toldLoaded(msg)
		return nil, true
	case followTickMsg:
		return t.followTicked(msg), true
	case followPolledMsg:
		return t.followPolled(msg), true
	case transcriptWrittenMsg:
		t.transcriptWritten(msg)
		return nil, true
	}
	return nil, false
}
