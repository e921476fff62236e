package ui

import (
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

// viewerChoices are the conversation's members; without naming collections
// and member records, the senders found in the held messages.
func (t *timeline) viewerChoices() []store.Member {
	if len(t.members) > 0 {
		return t.members
	}
	seen := map[string]bool{}
	var out []store.Member
	for i := t.lo; i <= t.hi; i++ {
		b := t.buckets[i]
		if b == nil {
			continue
		}
		for _, s := range b.Slots {
			if s.IsHole() || seen[s.Slot.Msg.SendID] {
				continue
			}
			seen[s.Slot.Msg.SendID] = true
			out = append(out, store.Member{UserID: s.Slot.Msg.SendID, Nickname: s.Slot.Msg.SenderNickname})
		}
	}
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
