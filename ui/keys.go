package ui

import (
	"github.com/chatlens/chatlens/ui/pages/timeline/model"

	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/components/lineinput"

	"github.com/chatlens/chatlens/ui/pages/list"
)

// handleKey routes a key: an open input takes every key first (so typing
// never fires an action), then an overlay, then the global keys, then the
// focused pane.
func (m *Model) handleKey(k tea.KeyMsg) tea.Cmd {
	if m.find != nil && !m.input.Open() && (key.Matches(k, m.e.Keys.Back) || k.Type == tea.KeyCtrlC) {
		m.cancelFind() // a running find is what esc and ctrl+c stop first
		m.setStatus("find cancelled", false)
		return nil
	}
	if k.Type == tea.KeyCtrlC {
		return m.quit()
	}
	if m.input.Open() {
		return m.inputKey(k)
	}
	keys := m.e.Keys
	switch m.overlay {
	case ovPicker:
		return m.pickerKey(k)
	case ovConfirm:
		return m.confirmKey(k)
	case ovCopyChoice:
		return m.copyChoiceKey(k)
	case ovHelp, ovInspector, ovMsgLog:
		// Boxes that only scroll and close.
		cmd := m.overlayComponent().Update(k)
		if closed := map[overlay]bool{ovHelp: m.helpBox.Closed(), ovInspector: m.inspector.Closed(),
			ovMsgLog: m.logBox.Closed()}; closed[m.overlay] {
			m.overlay = ovNone
		}
		return cmd
	}
	m.status = ""
	switch {
	case key.Matches(k, keys.Quit):
		return m.quit()
	case key.Matches(k, keys.Help):
		m.helpBox.Open()
		m.overlay = ovHelp
		return nil
	case key.Matches(k, keys.MessageLog):
		return m.openLog()
	case key.Matches(k, keys.SwitchPane):
		if m.tl != nil && m.focus == paneList {
			m.focus = paneTimeline
		} else {
			m.toList()
		}
		return nil
	case key.Matches(k, keys.Retry):
		return m.retry()
	case key.Matches(k, keys.ViewAsAny):
		m.startInput(inViewAs, "view as user ID: ", "")
		return nil
	case key.Matches(k, keys.FindByID):
		m.startInput(inFindID, "find message by client or server msg ID: ", "")
		return nil
	}
	if m.focus == paneTimeline && m.tl != nil {
		return m.timelineKey(k)
	}
	return m.listKey(k)
}

// quit ends the program, or, while a write is under way, ends it when the
// write is done: quitting then would cut the write off part way, unaudited.
func (m *Model) quit() tea.Cmd {
	if len(m.writes) == 0 {
		return tea.Quit
	}
	m.quitting = true
	m.setStatus("a write is under way: quitting when it is done…", false)
	return nil
}

func (m *Model) retry() tea.Cmd {
	switch {
	case m.list.Err() != nil:
		return m.list.Retry()
	case m.tl != nil && m.tl.err != nil:
		return m.tl.retry()
	case m.tl != nil:
		// Nothing failed: re-read what is held, so what another process
		// wrote meanwhile (a script's revoke while the UI is open) shows.
		m.setStatus("re-reading the buckets on screen and the list", false)
		return tea.Batch(m.tl.reload(), m.reloadList())
	case !m.list.Loading():
		m.setStatus("re-reading the list", false)
		return m.reloadList()
	}
	return nil
}

// toList gives the keys to the list, its cursor on the open conversation:
// the selection said one conversation while the timeline showed another.
func (m *Model) toList() {
	m.focus = paneList
	if m.tl != nil {
		m.list.Select(m.tl.cid)
	}
}

// listKey gives the key to the list and does what it asks.
func (m *Model) listKey(k tea.KeyMsg) tea.Cmd {
	cmd := m.list.Update(k)
	switch m.list.Ask() {
	case list.AskOpen:
		return tea.Batch(cmd, m.openSelected())
	case list.AskFilter:
		m.startInput(inFilter, "filter: ", m.list.Filter())
	}
	return cmd
}

// timelineKey handles the keys that act beyond the timeline (dialogs,
// inputs, writes, the viewer, the focus) and gives the rest to it.
func (m *Model) timelineKey(k tea.KeyMsg) tea.Cmd {
	keys, t := m.e.Keys, m.tl
	switch {
	case key.Matches(k, keys.Back):
		if t.compareAs != "" {
			t.stopCompare()
		} else {
			m.toList()
		}
	case key.Matches(k, keys.ViewAs):
		m.openPicker(false)
		return t.needMembers()
	case key.Matches(k, keys.CycleViewer):
		return t.press(model.Key{Kind: model.CycleViewer}) // in the picker's order, once the members are read
	case key.Matches(k, keys.Compare):
		if t.compareAs != "" {
			t.stopCompare()
			return nil
		}
		if peer := t.peerOf(t.viewer); peer != "" {
			// A single chat has one other member: no choice to make.
			return t.setCompare(peer)
		}
		m.openPicker(true)
		return t.needMembers()
	case t.win.PulledNothing() && t.compareAs == "" && key.Matches(k, keys.Revoke, keys.Delete, keys.MarkRead,
		m.writeKeys.Revoke, m.writeKeys.Delete, m.writeKeys.MarkRead, keys.Inspect, keys.Copy, keys.Transcript):
		// The viewer is shown no row: nothing for a row key to act on.
		m.setStatus(fmt.Sprintf("%s is shown nothing of %s (no conversation document: OpenIM pulls them none of it); %s to view as someone else",
			projection.SingleLine(t.viewer), projection.SingleLine(t.cid), common.KeyName(keys.ViewAsAny)), false)
	case t.compareAs != "" && t.diffOnly && t.diffs.runAt(t.cursor) < 0 && key.Matches(k, keys.Revoke, keys.Delete, keys.MarkRead,
		m.writeKeys.Revoke, m.writeKeys.Delete, m.writeKeys.MarkRead, keys.Inspect, keys.Copy, keys.Transcript):
		// "Differences only" draws no row under the cursor (none found, or
		// none yet): a row key would act on a seq the screen does not show.
		m.setStatus(fmt.Sprintf("no difference under the cursor (seq %d is not shown); %s for all rows", t.cursor, common.KeyName(keys.DiffOnly)), false)
	case key.Matches(k, keys.Revoke):
		return m.askRevoke()
	case key.Matches(k, keys.Delete):
		m.askAction(actDelete)
	case key.Matches(k, keys.MarkRead):
		m.askAction(actRead)
	case m.e.ReadOnly && key.Matches(k, m.writeKeys.Revoke, m.writeKeys.Delete, m.writeKeys.MarkRead):
		act := actRevoke
		switch {
		case key.Matches(k, m.writeKeys.Delete):
			act = actDelete
		case key.Matches(k, m.writeKeys.MarkRead):
			act = actRead
		}
		m.refuse(act, []int64{t.cursor}, "read-only: revoke, delete and mark read are disabled")
	case key.Matches(k, keys.Inspect):
		_, _, held := t.slot(t.cursor)
		_, inGap := t.gapAtCursor()
		switch {
		case held || inGap:
			m.openInspector()
			if held && t.compareAs == "" { // (the compare inspector shows both viewers instead)
				return t.loadReaders()
			}
		default:
			m.setStatus(fmt.Sprintf("seq %d is not read yet: %s once it is on screen", t.cursor, common.KeyName(keys.Inspect)), false)
		}
	case key.Matches(k, keys.Search):
		m.input.Start(inSearch, "search: ", t.search.query, t.search.query != "") // typing replaces the last query
	case key.Matches(k, keys.NextHit):
		return m.stepHit(true)
	case key.Matches(k, keys.PrevHit):
		return m.stepHit(false)
	case key.Matches(k, keys.Jump):
		m.startInput(inJump, "jump to seq or date (2006-01-02 15:04): ", "")
	case key.Matches(k, keys.Copy):
		m.askCopy()
	case key.Matches(k, keys.Follow):
		return m.toggleFollow()
	case key.Matches(k, keys.Transcript):
		m.askTranscript()
	default:
		cmd := t.Update(k)
		m.takeNote()
		return cmd
	}
	return nil
}

// What the bottom line input collects.
const (
	inFilter lineinput.Purpose = iota + 1
	inViewAs
	inJump
	inSearch
	inFindID
	inTranscript
)

// startInput opens the bottom line input for a purpose.
func (m *Model) startInput(purpose lineinput.Purpose, prompt, value string) {
	m.input.Start(purpose, prompt, value, false)
}

// inputKey gives the key to the input, whose command (a paste) goes back
// to the program, and acts on the input's value as it changes and ends.
func (m *Model) inputKey(k tea.KeyMsg) tea.Cmd {
	cmd := m.input.Update(k)
	return tea.Batch(cmd, m.inputChanged())
}

// inputChanged follows the input: the list filter as it is typed, the
// purpose's action when it is submitted.
func (m *Model) inputChanged() tea.Cmd {
	end, ok := m.input.Ended()
	switch {
	case ok && end.Submitted:
		return m.submitInput(end.Purpose, end.Value)
	case ok && end.Purpose == inFilter:
		m.list.SetFilter("")
	case !ok && m.input.Purpose() == inFilter:
		m.list.SetFilter(m.input.Value())
	}
	return nil
}

func (m *Model) submitInput(purpose lineinput.Purpose, value string) tea.Cmd {
	switch purpose {
	case inFilter:
		m.list.SetFilter(value)
	case inViewAs:
		return m.viewAsAnyone(value)
	case inJump:
		return m.jump(value)
	case inSearch:
		return m.startSearch(value)
	case inFindID:
		return m.startFind(value)
	case inTranscript:
		return m.writeTranscript(value)
	}
	return nil
}

// viewAsAnyone switches to any user ID typed at the prompt that a stored
// document names; a typo is said, with the nearest names (viewAsChecked).
func (m *Model) viewAsAnyone(id string) tea.Cmd {
	id = trimID(id)
	if id == "" {
		return nil
	}
	m.viewAsReq = m.e.NewReq()
	return checkViewAs(m.e, m.viewAsReq, id)
}

// switchViewer is the one way the viewer changes (v, V, u): in the same
// update the list's owner and title, the timeline's projection and header
// change, and what belongs to the old viewer (the list's unread counts, the
// read line) is hidden until the new viewer's arrives, so no frame shows
// one viewer's title over another's counts.
func (m *Model) switchViewer(id string) tea.Cmd {
	if m.tl != nil && m.tl.tl.Viewer() != id {
		// The timeline's model switches when the keys before are applied
		// and id's window is read; followViewer follows it.
		return m.tl.press(model.Key{Kind: model.ViewAs, Viewer: id})
	}
	return m.followSwitch(id)
}

// followSwitch switches the root and the timeline's drawing to id, reading
// their list and, when not known, their window.
func (m *Model) followSwitch(id string) tea.Cmd {
	if m.tl != nil && m.tl.viewer != id {
		m.tl.search = search{} // its hits are what the last viewer sees
	}
	m.setStatus(fmt.Sprintf("viewing as %s", id), false)
	var cmds []tea.Cmd
	var winReq common.ReqID // the timeline's window of id, when the list's read brings it
	if m.tl != nil {
		cmd, wait := m.tl.viewAs(id)
		switch {
		case wait && id != m.list.Owner():
			winReq = m.tl.winReq
		case wait:
			cmd = loadWindow(m.e, m.tl.winReq, id, m.tl.base)
		}
		cmds = append(cmds, cmd)
	}
	if id != m.list.Owner() {
		// The new owner's conversation and seq_user documents give both
		// their list and their window of the open conversation.
		var names map[string]string
		var at *bucket.Window
		if t := m.tl; t != nil {
			names = t.names
			if winReq != 0 {
				base := t.base
				at = &base
			}
		}
		cmds = append(cmds, m.list.SwitchOwner(id, names, at, winReq))
	}
	return tea.Batch(cmds...)
}
