package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
)

// picker chooses a member of the open conversation with type-ahead, either
// as the viewer or as the second viewer of the compare view.
type picker struct {
	forCompare bool
	input      textinput.Model
	members    []store.Member
	shown      []int
	cursor     int
}

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
	for i := t.lo; i <= t.hi; i++ {
		b := t.buckets[i]
		if b == nil {
			continue
		}
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
	p := picker{forCompare: forCompare, input: textinput.New(), members: m.tl.viewerChoices()}
	p.input.Prompt = "type to filter: "
	p.input.Focus()
	p.filter()
	for i, idx := range p.shown {
		if p.members[idx].UserID == m.tl.viewer {
			p.cursor = i
		}
	}
	m.picker, m.overlay = p, ovPicker
}

// setMembers replaces the choices, keeping what is typed and selected.
func (p *picker) setMembers(ms []store.Member) {
	keep := ""
	if p.cursor < len(p.shown) {
		keep = p.members[p.shown[p.cursor]].UserID
	}
	p.members = ms
	p.filter()
	for i, idx := range p.shown {
		if ms[idx].UserID == keep {
			p.cursor = i
		}
	}
}

func (p *picker) filter() {
	q := strings.ToLower(p.input.Value())
	p.shown = p.shown[:0]
	for i, mb := range p.members {
		if q == "" || strings.Contains(strings.ToLower(mb.UserID), q) || strings.Contains(strings.ToLower(mb.Nickname), q) {
			p.shown = append(p.shown, i)
		}
	}
	p.cursor = min(p.cursor, max(0, len(p.shown)-1))
}

func (m *Model) pickerKey(k tea.KeyMsg) tea.Cmd {
	p := &m.picker
	switch k.Type {
	case tea.KeyEsc:
		m.overlay = ovNone
		return nil
	case tea.KeyUp, tea.KeyCtrlP:
		p.cursor = max(0, p.cursor-1)
		return nil
	case tea.KeyDown, tea.KeyCtrlN:
		p.cursor = min(len(p.shown)-1, p.cursor+1)
		return nil
	case tea.KeyEnter:
		m.overlay = ovNone
		if len(p.shown) == 0 {
			return nil
		}
		id := p.members[p.shown[p.cursor]].UserID
		if p.forCompare {
			m.tl.compareAs = id
			return nil
		}
		return m.tl.setViewer(id)
	}
	p.input, _ = p.input.Update(k)
	p.filter()
	return nil
}

// cycleViewer switches to the next member, wrapping around.
func (m *Model) cycleViewer() tea.Cmd {
	ms := m.tl.viewerChoices()
	if len(ms) == 0 {
		m.setStatus("no members known yet", true)
		return nil
	}
	next := ms[0].UserID
	for i, mb := range ms {
		if mb.UserID == m.tl.viewer {
			next = ms[(i+1)%len(ms)].UserID
		}
	}
	m.setStatus("viewing as "+next, false)
	return m.tl.setViewer(next)
}

func trimID(s string) string { return strings.TrimSpace(s) }
