package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/components/inspector"
	"github.com/chatlens/chatlens/ui/components/lineinput"

	"github.com/chatlens/chatlens/ui/pages/list"
	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// routeKey gives a key to whom it is for: an open input takes every key
// first (so typing never fires an action), then an overlay, then the
// global keys, then the focused pane.
func (m *Model) routeKey(k tea.KeyMsg) tea.Cmd {
	if m.find.cur != nil && !m.input.Open() && (key.Matches(k, m.e.Keys.Back) || k.Type == tea.KeyCtrlC) {
		m.find.cancel() // a running find is what esc and ctrl+c stop first
		m.setStatus("find cancelled", false)
		return nil
	}
	if k.Type == tea.KeyCtrlC {
		return m.quit()
	}
	if m.input.Open() {
		// Its command (a paste) goes back to the program.
		return tea.Batch(m.input.Update(k), m.inputChanged())
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
	m.setStatus("", false)
	if wider, ok := m.find.widerAsked(k, keys); ok {
		cmd, status := m.find.start(m.e, wider, []store.FindScope{{}})
		m.setStatus(status, false)
		return cmd
	}
	switch {
	case key.Matches(k, keys.Quit):
		return m.quit()
	case key.Matches(k, keys.Help):
		m.helpBox.Open()
		m.overlay = ovHelp
		return nil
	case key.Matches(k, keys.MessageLog):
		m.overlay = ovMsgLog
		return m.logBox.Open() // and reads the operator's audit lines
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
		m.input.Start(inViewAs, "view as user ID: ", "", false)
		return nil
	case key.Matches(k, keys.FindByID):
		m.input.Start(inFindID, m.find.prompt(m.viewer(), openID(m.tl), keys), m.find.last, m.find.last != "")
		return nil
	case key.Matches(k, keys.Context):
		return m.askContext("")
	case key.Matches(k, keys.Jump) && (m.focus == paneList || m.tl == nil):
		// : in the list is the prompt with "context " typed, the names
		// completed by tab (a seq or a date needs a conversation open).
		if why, none := m.contexts.noOther(m.e.Store.Context()); none {
			m.setStatus(why+"; : jumps to a seq or date in an open conversation", true)
			return nil
		}
		m.input.Start(inJump, ":", "context ", false)
		m.input.Suggest(m.contexts.suggestions())
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
		return tea.Batch(m.tl.Reload(), m.list.Load())
	case !m.list.Loading():
		m.setStatus("re-reading the list", false)
		return m.list.Load()
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
	var why tea.Cmd // a row key with nothing under the cursor: the line saying why
	nothing := false
	if rowKey {
		why, nothing = t.NothingUnderCursor()
	}
	switch {
	case key.Matches(k, keys.Back):
		if t.Compare().With() != "" {
			return t.Compare().Stop()
		}
		m.toList()
	case key.Matches(k, keys.ViewAs):
		m.showPicker(viewerPicker(m.e, t, false))
		return t.NeedMembers()
	case key.Matches(k, keys.CycleViewer):
		// In the picker's order, once the members are read; a switch made
		// at once is made in this update.
		cmd, ask := t.Viewers().Cycle()
		return tea.Batch(cmd, m.viewers.follow(t, &m.list, ask))
	case key.Matches(k, keys.Compare):
		cmd, pick := t.Compare().Toggle()
		if pick {
			m.showPicker(viewerPicker(m.e, t, true))
		}
		return cmd
	case nothing:
		return why
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
		open, cmd := t.Inspector().Open()
		if open { // from its top
			m.inspector, m.overlay = inspector.New(m.e), ovInspector
			m.layout()
		}
		return cmd
	case key.Matches(k, keys.Search):
		q := t.Search().Query()
		m.input.Start(inSearch, "search: ", q, q != "") // typing replaces the last query
	case key.Matches(k, keys.NextHit):
		return t.Search().Step(true)
	case key.Matches(k, keys.PrevHit):
		return t.Search().Step(false)
	case key.Matches(k, keys.Jump):
		m.input.Start(inJump, "jump to seq or date ("+timeline.JumpForms+"): ", "", false)
		m.input.Suggest(m.contexts.suggestions()) // :context NAME switches deployment
	case key.Matches(k, keys.Copy):
		m.askCopy()
	case key.Matches(k, keys.Follow):
		return t.Follow().Toggle()
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
		return m.viewers.check(m.e, value)
	case inJump:
		if name, ok := contextCommand(value); ok {
			return m.askContext(name)
		}
		if m.tl == nil {
			m.setStatus("open a conversation to jump to a seq or date", true)
			return nil
		}
		m.focus = paneTimeline
		return m.tl.Moves().Jump(value)
	case inSearch:
		return m.tl.Search().Start(value)
	case inFindID:
		cmd, status := m.find.start(m.e, value, findScopes(openID(m.tl), m.viewer()))
		if status != "" {
			m.setStatus(status, false)
		}
		return cmd
	case inTranscript:
		return m.tl.Transcript().Write(value)
	}
	return nil
}
