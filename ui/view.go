package ui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/list"
	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// Below the panes: the status bar and a footer (input, message or hints).
const chromeLines = 2

// narrow is the width under which only the focused pane is drawn.
const narrow = 70

func (m *Model) bodyHeight() int { return max(3, m.height-chromeLines) }

// View draws the whole screen at exactly m.width x m.height.
func (m *Model) View() string {
	if m.width == 0 || m.height == 0 {
		return ""
	}
	h := m.bodyHeight()
	var body string
	if m.conn.waiting {
		body = m.e.Theme.FocusedPane.Render(common.FitBlock(m.conn.pane(m.e, m.list.Owner(), m.width-2), m.width-2, h-2))
	} else {
		body = m.paneSizes().draw(m.e.Theme, m.focus, &m.list, m.tl)
	}
	// Dialogs float over the panes: the message being revoked, or the
	// timeline a viewer is picked for, stays in sight.
	switch c := m.overlayComponent(); {
	case c == nil:
	case m.overlay == ovInspector: // covers the panes whole
		body = c.View()
	default:
		body = floatOver(body, c.View(), m.width, h)
	}
	var tl *timeline.Model // the timeline the bars speak of, when it has the keys
	if m.focus == paneTimeline {
		tl = m.tl
	}
	foot := m.bar.footer(m.e, m.width, footerState{input: &m.input, status: m.status, statusErr: m.statusErr,
		tl: tl, overlaid: m.overlay != ovNone, hints: m.hints()})
	return lipgloss.JoinVertical(lipgloss.Left, body, m.bar.status(m.e, m.width, m.viewer(), &m.conn, m.switching, m.tl), foot)
}

// paneSizes is where panes draws: the cells inside each pane's border.
// One pane, the focused one, on a narrow screen, with no conversation open
// or while comparing (which takes the full width); else the list left of
// the timeline.
type paneSizes struct {
	single            bool
	listW, tlW, inner int
}

func (m *Model) paneSizes() paneSizes {
	inner := m.bodyHeight() - 2
	comparing := m.tl != nil && m.tl.Compare().With() != "" && m.focus == paneTimeline
	if m.width < narrow || m.tl == nil || comparing {
		return paneSizes{single: true, listW: m.width - 2, tlW: m.width - 2, inner: inner}
	}
	listW := max(24, min(40, m.width/3)) - 2
	return paneSizes{listW: listW, tlW: m.width - listW - 4, inner: inner}
}

// draw frames the list and the timeline (nil: none open) as laid out,
// the pane with the keys (focus) framed as such.
func (ps paneSizes) draw(th themes.Theme, focus pane, l *list.Model, tl *timeline.Model) string {
	frame := func(focused bool) lipgloss.Style {
		if focused {
			return th.FocusedPane
		}
		return th.Pane
	}
	if ps.single {
		if tl != nil && focus == paneTimeline {
			return frame(true).Render(common.FitBlock(tl.View(), ps.tlW, ps.inner))
		}
		return frame(true).Render(common.FitBlock(l.View(), ps.listW, ps.inner))
	}
	left := frame(focus == paneList).Render(common.FitBlock(l.View(), ps.listW, ps.inner))
	right := frame(focus == paneTimeline).Render(common.FitBlock(tl.View(), ps.tlW, ps.inner))
	return lipgloss.JoinHorizontal(lipgloss.Top, left, right)
}

// hints are the keys that do something where the user is now.
func (m *Model) hints() []key.Binding {
	if c := m.overlayComponent(); c != nil {
		return c.ShortHelp()
	}
	if m.conn.waiting {
		return []key.Binding{m.e.Keys.MessageLog}
	}
	if m.focus == paneTimeline && m.tl != nil {
		return m.tl.ShortHelp()
	}
	return m.list.ShortHelp()
}
