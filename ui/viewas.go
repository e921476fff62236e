package ui

import (
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/components/picker"
)

// viewerChoices are the conversation's members once read; until then (or
// without member records) the people already known: the viewer, the list's
// owner and peer, and the senders of the held messages.
func (t *timeline) viewerChoices() []store.Member {
	if len(t.members) > 0 {
		return t.members
	}
	seen := map[string]bool{}
	var out []store.Member
	add := func(id, nick string) {
		if id == "" || seen[id] {
			return
		}
		seen[id] = true
		if nick == "" {
			nick = t.names[id]
		}
		out = append(out, store.Member{UserID: id, Nickname: nick})
	}
	add(t.viewer, "")
	add(t.owner, "")
	add(t.peer, "")
	for _, i := range t.tl.HeldIndexes() {
		b := t.tl.Held(i)
		for _, s := range b.Slots {
			if !s.IsHole() {
				add(s.Slot.Msg.SendID, s.Slot.Msg.SenderNickname)
			}
		}
	}
	slices.SortFunc(out, func(a, b store.Member) int { return strings.Compare(a.UserID, b.UserID) })
	return out
}

func (m *Model) openPicker(forCompare bool) {
	t := m.tl
	title := "View as"
	if forCompare {
		title = "Compare " + t.viewer + " with"
	}
	m.picker = picker.New(m.e, forCompare, title, t.pickerChoices(forCompare), t.pickerDefault(forCompare))
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
		return tea.Batch(cmd, m.tl.setCompare(id))
	default:
		return tea.Batch(cmd, m.switchViewer(id))
	}
}

// pickerChoices are the viewer choices; comparing the viewer with
// themselves shows nothing, so the compare picker leaves them out.
func (t *timeline) pickerChoices(forCompare bool) []store.Member {
	ms := t.viewerChoices()
	if !forCompare {
		return ms
	}
	return slices.DeleteFunc(slices.Clone(ms), func(mb store.Member) bool { return mb.UserID == t.viewer })
}

// pickerDefault is who the picker starts on: the viewer when switching;
// when comparing, whoever is most likely to see it differently: the last
// one compared with, the other user of a single chat, the sender of the
// selected message.
func (t *timeline) pickerDefault(forCompare bool) string {
	if !forCompare {
		return t.viewer
	}
	candidates := []string{t.lastCompared, t.peerOf(t.viewer)}
	if msg, ok := t.message(t.cursor, t.viewer); ok && !msg.Hole {
		candidates = append(candidates, msg.SendID)
	}
	for _, c := range candidates {
		if c != "" && c != t.viewer {
			return c
		}
	}
	return ""
}

// peerOf is the other user of a single chat, "" for a group.
func (t *timeline) peerOf(viewer string) string {
	if t.conv.SessionType != bucket.SessionSingle {
		return ""
	}
	for _, id := range []string{t.peer, t.owner} {
		if id != "" && id != viewer {
			return id
		}
	}
	return ""
}

// choiceIDs are the viewer choices' IDs, in the picker's order: what V
// cycles through, once the members are read.
func (t *timeline) choiceIDs() []string {
	var ids []string
	for _, mb := range t.viewerChoices() {
		ids = append(ids, mb.UserID)
	}
	return ids
}

func trimID(s string) string { return strings.TrimSpace(s) }

// followViewer does at the root what the timeline's model asked for in the
// update: to switch to the viewer it moved to (V), or to read the window
// of the one it waits for, which the switch reads.
func (m *Model) followViewer() tea.Cmd {
	t := m.tl
	if t == nil {
		return nil
	}
	var cmds []tea.Cmd
	if id := t.wantWindow; id != "" {
		t.wantWindow = ""
		if id != t.viewer || t.winReq == 0 {
			cmds = append(cmds, m.followSwitch(id))
		}
	}
	if id := t.switchTo; id != "" {
		t.switchTo = ""
		if id != t.viewer || id != m.list.Owner() {
			cmds = append(cmds, m.followSwitch(id))
		}
	}
	return tea.Batch(cmds...)
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
