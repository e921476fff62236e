package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
)

// The message log (L): what the screen shows as a problem is logged in
// full, and the log opens over the panes.

// openLog shows the message log and reads the operator's audit lines.
func (m *Model) openLog() tea.Cmd {
	m.overlay = ovMsgLog
	return m.logBox.Open()
}

// noteProblems logs the problems the screen shows now: the status bar's
// error (or a notice it cuts), a failed list or timeline load, a failing
// cache.
func (m *Model) noteProblems() {
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	now := m.e.Now()
	status, notice := "", ""
	switch {
	case m.statusErr:
		status = m.status
	case m.width > 0 && projection.Width(projection.SingleLine(m.status)) > m.width:
		notice = m.status // cut on the status line: whole in the log
	}
	m.log.Add("status", status, now, false)
	m.log.Add("notice", notice, now, true)
	m.log.Add("list", prefixed("conversation list: ", errText(m.list.Err())), now, false)
	if m.tl != nil {
		m.log.Add("timeline", prefixed(m.tl.ID()+": ", errText(m.tl.Err())), now, false)
	}
	if m.e.Store != nil {
		m.log.Add("cache", prefixed("cache failing, reading the store: ", errText(m.e.Store.Stats().CacheError)), now, false)
	}
	m.log.Add("connect", prefixed("could not connect to "+m.conn.to+": ", errText(m.conn.err)), now, false)
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}
