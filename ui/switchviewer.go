package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/components/picker"

	"github.com/chatlens/chatlens/ui/common"

	"github.com/chatlens/chatlens/store/bucket"
)

// Changing the viewer: the picker (v, and c for the compare view's second
// viewer), the next member (V), any user ID (u); one switch for all.

// openPicker offers the timeline's viewer choices.
func (m *Model) openPicker(forCompare bool) {
	t := m.tl
	title := "View as"
	if forCompare {
		title = "Compare " + t.Viewer() + " with"
	}
	m.picker = picker.New(m.e, forCompare, title, t.PickerChoices(forCompare), t.Viewers().PickerDefault(forCompare))
	m.picker.SetSize(m.width, m.bodyHeight())
	m.overlay = ovPicker
}

// pickerKey gives the key to the picker and acts on its choice.
func (m *Model) pickerKey(k tea.KeyMsg) tea.Cmd {
	cmd := m.picker.Update(k)
	if !m.picker.Closed() {
		return cmd
	}
	m.overlay = ovNone
	switch id := m.picker.Chosen(); {
	case id == "":
		return cmd
	case m.picker.ForContext():
		return tea.Batch(cmd, m.askContext(id))
	case m.picker.ForCompare():
		return tea.Batch(cmd, m.tl.Compare().Set(id))
	default:
		return tea.Batch(cmd, m.switchViewer(id))
	}
}

// viewAsAnyone switches to any user ID typed at the prompt that a stored
// document names; a typo is said, with the nearest names (viewAsChecked).
func (m *Model) viewAsAnyone(id string) tea.Cmd {
	id = strings.TrimSpace(id)
	if id == "" {
		return nil
	}
	m.viewAsReq = m.e.NewReq()
	return checkViewAs(m.e, m.viewAsReq, id)
}

// viewAsCheckedMsg is the store's answer on an ID typed at the view-as
// prompt: err says no stored document names it.
type viewAsCheckedMsg struct {
	req common.ReqID
	id  string
	err error
}

func checkViewAs(e *common.Common, req common.ReqID, id string) tea.Cmd {
	return func() tea.Msg { return viewAsCheckedMsg{req: req, id: id, err: e.Store.CheckIDs(e.Ctx, "", id)} }
}

// viewAsChecked switches to the ID typed, or says why not: "no such user",
// with the nearest names.
func (m *Model) viewAsChecked(msg viewAsCheckedMsg) tea.Cmd {
	if msg.req != m.viewAsReq {
		return nil // another ID was typed meanwhile
	}
	if msg.err != nil {
		m.setStatus(msg.err.Error(), true)
		return nil
	}
	return m.switchViewer(msg.id)
}

// switchViewer is a switch the user asked for (the picker, u): with a
// conversation open, the timeline's model makes it once the keys pressed
// before are applied and the viewer's window is read, and followViewer
// follows it; else at once.
func (m *Model) switchViewer(id string) tea.Cmd {
	if m.tl != nil {
		if cmd, later := m.tl.Viewers().SwitchTo(id); later {
			return cmd
		}
	}
	return m.followSwitch(id)
}

// followViewer does at the root what the timeline's model asked for in the
// update: to start the switch that reads the window it waits for, or to
// follow a switch it made (V).
func (m *Model) followViewer() tea.Cmd {
	if m.tl == nil {
		return nil
	}
	var cmds []tea.Cmd
	window, moved := m.tl.Viewers().Asks()
	if window != "" {
		cmds = append(cmds, m.followSwitch(window))
	}
	if moved != "" && (moved != m.tl.Viewer() || moved != m.list.Owner()) {
		cmds = append(cmds, m.followSwitch(moved))
	}
	return tea.Batch(cmds...)
}

// followSwitch is the one way the viewer changes (v, V, u): in the same
// update the list's owner and title, the timeline's projection and header
// change, and what belongs to the old viewer (the list's unread counts, the
// read line; a search's hits, which the timeline's model drops as it
// switches) is hidden until the new viewer's arrives, so
// no frame shows one viewer's title over another's counts.
func (m *Model) followSwitch(id string) tea.Cmd {
	m.setStatus(fmt.Sprintf("viewing as %s", id), false)
	var cmds []tea.Cmd
	var names map[string]string
	var winReq common.ReqID // the timeline's window of id, when the list's read brings it
	var at *bucket.Window   // where that window is read
	if t := m.tl; t != nil {
		var cmd tea.Cmd
		cmd, winReq, at = t.Viewers().ViewAs(id, id != m.list.Owner())
		cmds = append(cmds, cmd)
		names = t.Viewers().Names()
	}
	if id != m.list.Owner() {
		// The new owner's conversation and seq_user documents give both
		// their list and their window of the open conversation.
		cmds = append(cmds, m.list.SwitchOwner(id, names, at, winReq))
	}
	return tea.Batch(cmds...)
}
