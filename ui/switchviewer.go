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
	m.picker = picker.New(m.e, forCompare, title, t.PickerChoices(forCompare), t.PickerDefault(forCompare))
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
	case m.picker.ForCompare():
		return tea.Batch(cmd, m.tl.SetCompare(id))
	default:
		return tea.Batch(cmd, m.switchViewer(id))
	}
}

// cycleViewer switches to the next member, wrapping around.
func (m *Model) cycleViewer() tea.Cmd {
	next, ok := m.tl.NextViewer()
	m.takeNotes()
	if !ok {
		return nil
	}
	return m.switchViewer(next)
}

// viewAsAnyone switches to any user ID typed at the prompt.
func (m *Model) viewAsAnyone(id string) tea.Cmd {
	id = strings.TrimSpace(id)
	if id == "" {
		return nil
	}
	return m.switchViewer(id)
}

// switchViewer is the one way the viewer changes (v, V, u): in the same
// update the list's owner and title, the timeline's projection and header
// change, and what belongs to the old viewer (the list's unread counts, the
// read line) is hidden until the new viewer's arrives, so no frame shows
// one viewer's title over another's counts.
func (m *Model) switchViewer(id string) tea.Cmd {
	m.setStatus(fmt.Sprintf("viewing as %s", id), false)
	var cmds []tea.Cmd
	var names map[string]string
	var winReq common.ReqID // the timeline's window of id, when the list's read brings it
	var at *bucket.Window   // where that window is read
	if t := m.tl; t != nil {
		var cmd tea.Cmd
		cmd, winReq, at = t.ViewAs(id, id != m.list.Owner())
		cmds = append(cmds, cmd)
		names = t.Names()
	}
	if id != m.list.Owner() {
		// The new owner's conversation and seq_user documents give both
		// their list and their window of the open conversation.
		cmds = append(cmds, m.list.SwitchOwner(id, names, at, winReq))
	}
	return tea.Batch(cmds...)
}
