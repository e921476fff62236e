package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/common"
)

// After a mark read: of what the screen shows beside the rows, only the
// reader's read seq moves (the list's unread count, the read line), so
// only it is read back (store.ReadSeqOf, one round trip), not the list
// and the window whole. The one the store shows, not the one asked for:
// the server may have accepted and not written yet, or the write stopped
// part way.

type readSeqLoadedMsg struct {
	st          *store.Store // read from: a switch of context since drops it
	viewer, cid string
	readSeq     int64
	err         error
}

func loadReadSeq(e *common.Common, viewer, cid string) tea.Cmd {
	return func() tea.Msg {
		r, err := e.Store.ReadSeqOf(e.Ctx, viewer, cid)
		return readSeqLoadedMsg{st: e.Store, viewer: viewer, cid: cid, readSeq: r, err: err}
	}
}

// afterMarkRead reads back what a mark read of cid by viewer changed
// beside the rows. A list or window read on its way may have read before
// the write: that one is started again whole instead.
func (m *Model) afterMarkRead(viewer, cid string) []tea.Cmd {
	var cmds []tea.Cmd
	patch := false
	if m.list.Owner() == viewer {
		if m.list.Loading() {
			cmds = append(cmds, m.list.Load())
		} else {
			patch = true
		}
	}
	if t := m.tl; t != nil && t.ID() == cid {
		p, cmd := t.AfterMarkRead(viewer)
		patch = patch || p
		cmds = append(cmds, cmd)
	}
	if patch {
		cmds = append(cmds, loadReadSeq(m.e, viewer, cid))
	}
	return cmds
}

// readSeqLoaded puts the read seq where the list and the timeline show it.
func (m *Model) readSeqLoaded(msg readSeqLoadedMsg) tea.Cmd {
	if msg.st != m.e.Store {
		return nil // another deployment's
	}
	if msg.err != nil {
		m.setStatus("read seq of "+msg.viewer+": "+msg.err.Error(), true)
		return nil
	}
	m.list.SetReadSeq(msg.viewer, msg.cid, msg.readSeq)
	if t := m.tl; t != nil && t.ID() == msg.cid {
		return t.SetReadSeq(msg.viewer, msg.readSeq)
	}
	return nil
}
