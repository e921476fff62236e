package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/components/picker"
	"github.com/chatlens/chatlens/ui/pages/list"
	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// Changing the viewer: the picker (v, and c for the compare view's second
// viewer), the next member (V), any user ID (u); one switch for all.

// viewerSwitch is the part that changes whose eyes the screen uses, in
// the list and the timeline at once; it holds the check of the ID typed at
// the view-as prompt.
type viewerSwitch struct {
	checking common.ReqID
}

// viewerPicker offers the timeline's viewer choices (forCompare: the
// compare view's second viewer).
func viewerPicker(e *common.Common, t *timeline.Model, forCompare bool) picker.Model {
	title := "View as"
	if forCompare {
		title = "Compare " + t.Viewer() + " with"
	}
	return picker.New(e, forCompare, title, t.PickerChoices(forCompare), t.Viewers().PickerDefault(forCompare))
}

// showPicker opens p over the panes.
func (m *Model) showPicker(p picker.Model) {
	m.picker = p
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
		switched, said := m.viewers.to(m.tl, &m.list, id)
		if said != "" {
			m.setStatus(said, false)
		}
		return tea.Batch(cmd, switched)
	}
}

// check asks the store whether any stored document names the ID typed at
// the view-as prompt (u); a typo is said, with the nearest names (checked).
func (v *viewerSwitch) check(e *common.Common, id string) tea.Cmd {
	id = strings.TrimSpace(id)
	if id == "" {
		return nil
	}
	v.checking = e.NewReq()
	return checkViewAs(e, v.checking, id)
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

// checked switches to the ID typed, or says why not: "no such user", with
// the nearest names; nothing when another ID was typed meanwhile.
func (v *viewerSwitch) checked(msg viewAsCheckedMsg, t *timeline.Model, l *list.Model) (tea.Cmd, common.Note) {
	switch {
	case msg.req != v.checking:
		return nil, common.Note{}
	case msg.err != nil:
		return nil, common.Note{Text: msg.err.Error(), IsErr: true}
	}
	cmd, said := v.to(t, l, msg.id)
	return cmd, common.Note{Text: said}
}

// to is a switch the user asked for (the picker, u): with a conversation
// open (t not nil), the timeline's model makes it once the keys pressed
// before are applied and the viewer's window is read, and follow follows
// it (in this update when the model asks at once); else at once. said is
// what the status line says ("" for nothing: the timeline says it).
func (v *viewerSwitch) to(t *timeline.Model, l *list.Model, id string) (cmd tea.Cmd, said string) {
	if t != nil {
		if cmd, ask, later := t.Viewers().SwitchTo(id); later {
			return tea.Batch(cmd, v.follow(t, l, ask)), ""
		}
	}
	return v.apply(t, l, id), "viewing as " + id
}

// follow does what the timeline's model asked for: to start the switch
// that reads the window it waits for, or to follow a switch it made (V).
// The timeline says "viewing as" itself, after what else it had to say.
func (v *viewerSwitch) follow(t *timeline.Model, l *list.Model, ask timeline.SwitchViewerMsg) tea.Cmd {
	var cmds []tea.Cmd
	if ask.Window != "" {
		cmds = append(cmds, v.apply(t, l, ask.Window))
	}
	if ask.Moved != "" && (ask.Moved != t.Viewer() || ask.Moved != l.Owner()) {
		cmds = append(cmds, v.apply(t, l, ask.Moved))
	}
	return tea.Batch(cmds...)
}

// apply is the one way the viewer changes (v, V, u): in the same update
// the list's owner and title, the timeline's projection and header change,
// and what belongs to the old viewer (the list's unread counts, the read
// line; a search's hits, which the timeline's model drops as it switches) is
// hidden until the new viewer's arrives, so no frame shows one viewer's
// title over another's counts.
func (v *viewerSwitch) apply(t *timeline.Model, l *list.Model, id string) tea.Cmd {
	var cmds []tea.Cmd
	var names map[string]string
	var winReq common.ReqID // the timeline's window of id, when the list's read brings it
	var at *bucket.Window   // where that window is read
	if t != nil {
		var cmd tea.Cmd
		cmd, winReq, at = t.Viewers().ViewAs(id, id != l.Owner())
		cmds = append(cmds, cmd)
		names = t.Viewers().Names()
	}
	if id != l.Owner() {
		// The new owner's conversation and seq_user documents give both
		// their list and their window of the open conversation.
		cmds = append(cmds, l.SwitchOwner(id, names, at, winReq))
	}
	return tea.Batch(cmds...)
}
