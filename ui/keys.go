package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/components/lineinput"

	"github.com/chatlens/chatlens/ui/pages/list"
	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// handleKey routes a key and shows what the part it reached has to say.
func (m *Model) handleKey(k tea.KeyMsg) tea.Cmd {
	cmd := m.routeKey(k)
	m.takeNotes()
	return cmd
}

// routeKey routes a key: an open input takes every key first (so typing
// never fires an action), then an overlay, then the global keys, then the
// focused pane.
func (m *Model) routeKey(k tea.KeyMsg) tea.Cmd {
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
	if wider := m.findWider; wider != "" {
		m.findWider = "" // offered until the next key
		if key.Matches(k, keys.FindAll) {
			return m.startFind(wider, []store.FindScope{{}})
		}
	}
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
		m.input.Start(inFindID, m.findPrompt(), m.lastFind, m.lastFind != "")
		return nil
	case key.Matches(k, keys.Context):
		m.openContexts()
		return nil
	case key.Matches(k, keys.Jump) && (m.focus == paneList || m.tl == nil):
		m.listColon()
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
	case m.tl != nil && m.tl.Err() != nil:
		return m.tl.Retry()
	case m.tl != nil:
		// Nothing failed: re-read what is held, so what another process
		// wrote meanwhile (a script's revoke while the UI is open) shows.
		m.setStatus("re-reading the buckets on screen and the list", false)
		return tea.Batch(m.tl.Reload(), m.reloadList())
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
		m.list.Select(m.tl.ID())
	}
}

// listKey gives the key to the list and does what it asks.
func (m *Model) listKey(k tea.KeyMsg) tea.Cmd {
	cmd := m.list.Update(k)
	switch m.list.Ask() {
	case list.AskOpen:
		return tea.Batch(cmd, m.openSelected())
	case list.AskFilter:
		// The last filter is offered selected: typing replaces it.
		m.input.Start(inFilter, "filter: ", m.list.Filter(), m.list.Filter() != "")
	}
	return cmd
}

// timelineKey handles the keys that act beyond the timeline (dialogs,
// inputs, writes, the viewer, the focus) and gives the rest to it.
func (m *Model) timelineKey(k tea.KeyMsg) tea.Cmd {
	keys, t := m.e.Keys, m.tl
	rowKey := key.Matches(k, keys.Revoke, keys.Delete, keys.MarkRead,
		m.writeKeys.Revoke, m.writeKeys.Delete, m.writeKeys.MarkRead, keys.Inspect, keys.Copy, keys.Transcript)
	switch {
	case key.Matches(k, keys.Back):
		if t.Comparing() != "" {
			return t.StopCompare()
		}
		m.toList()
	case key.Matches(k, keys.ViewAs):
		m.openPicker(false)
		return t.NeedMembers()
	case key.Matches(k, keys.CycleViewer):
		return t.CycleViewer() // in the picker's order, once the members are read
	case key.Matches(k, keys.Compare):
		cmd, pick := t.ToggleCompare()
		if pick {
			m.openPicker(true)
		}
		return cmd
	case rowKey && t.NothingUnderCursor(): // said why
	case key.Matches(k, keys.Revoke):
		return m.askWrite(actRevoke)
	case key.Matches(k, keys.Delete):
		return m.askWrite(actDelete)
	case key.Matches(k, keys.MarkRead):
		return m.askWrite(actRead)
	case m.e.ReadOnly && key.Matches(k, m.writeKeys.Revoke, m.writeKeys.Delete, m.writeKeys.MarkRead):
		act := actRevoke
		switch {
		case key.Matches(k, m.writeKeys.Delete):
			act = actDelete
		case key.Matches(k, m.writeKeys.MarkRead):
			act = actRead
		}
		return m.askWrite(act) // the store refuses it, and audits that
	case key.Matches(k, keys.Inspect):
		open, cmd := t.Inspect()
		if open {
			m.openInspector()
		}
		return cmd
	case key.Matches(k, keys.Search):
		q := t.SearchQuery()
		m.input.Start(inSearch, "search: ", q, q != "") // typing replaces the last query
	case key.Matches(k, keys.NextHit):
		return t.StepHit(true)
	case key.Matches(k, keys.PrevHit):
		return t.StepHit(false)
	case key.Matches(k, keys.Jump):
		m.startInput(inJump, "jump to seq or date ("+timeline.JumpForms+"): ", "")
		m.input.Suggest(m.contextSuggestions()) // :context NAME switches deployment
	case key.Matches(k, keys.Copy):
		m.askCopy()
	case key.Matches(k, keys.Follow):
		return t.ToggleFollow()
	case key.Matches(k, keys.Transcript):
		m.askTranscript()
	default:
		return t.Update(k)
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
		if name, ok := contextCommand(value); ok {
			return m.askContext(name)
		}
		if m.tl == nil {
			m.setStatus("open a conversation to jump to a seq or date", true)
			return nil
		}
		m.focus = paneTimeline
		return m.tl.Jump(value)
	case inSearch:
		return m.tl.Search(value)
	case inFindID:
		return m.startFind(value, m.findScopes())
	case inTranscript:
		return m.tl.Transcript(value)
	}
	return nil
}
