package timeline

import (
	tea "github.com/charmbracelet/bubbletea"
)

// Reply takes a reply to one of the timeline's commands (ok false: not
// one): buckets read, a window, a search or diff step, a jump resolved in
// the background, readers, follow's ticks and polls, a transcript written.
// A reply for a view, a search or a viewer already left is dropped by its
// request number. What it has to say comes as messages (messages.go); the
// members are the root's to take (TakeMembers), since a revoke may wait
// for them.
func (t *Model) Reply(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case bucketsLoadedMsg:
		return tea.Batch(t.load.loaded(msg), t.Follow().followed()), true
	case windowLoadedMsg:
		return t.Viewers().TakeWindow(msg.req, msg.viewer, msg.win, msg.err), true
	case searchStepMsg:
		return t.Search().searchStepped(msg), true
	case scanLandedMsg:
		if msg.req != t.req {
			return nil, true // read before a reload
		}
		return t.load.after(t.tl.Land(msg.landed)), true
	case momentReadMsg:
		return t.Moment().momentRead(msg), true
	case dateFoundMsg:
		if msg.req != t.req {
			return nil, true // read before a reload
		}
		return t.load.after(t.tl.Land(msg.landed)), true
	case readersLoadedMsg:
		t.Inspector().readersLoaded(msg)
		return nil, true
	case toldLoadedMsg:
		t.Inspector().toldLoaded(msg)
		return nil, true
	case lifeLoadedMsg:
		t.Inspector().lifeLoaded(msg)
		return nil, true
	case followTickMsg:
		return t.Follow().followTicked(msg), true
	case followPolledMsg:
		return t.Follow().followPolled(msg), true
	case transcriptWrittenMsg:
		return t.Transcript().transcriptWritten(msg), true
	}
	return nil, false
}
