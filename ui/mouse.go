package ui

import (
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// handleMouse (with --mouse): the wheel scrolls the focused pane; a left
// click on a conversation opens it, on a timeline row moves the cursor there.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if msg.Action != tea.MouseActionPress || m.overlay != ovNone || m.input.Open() {
		return nil
	}
	delta := 0
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		delta = -3
	case tea.MouseButtonWheelDown:
		delta = 3
	case tea.MouseButtonLeft:
		onList, line, ok := m.paneSizes().at(msg.X, msg.Y, m.tl == nil || m.focus == paneList)
		switch {
		case !ok:
			return nil
		case onList:
			if !m.list.RowAt(line) {
				return nil
			}
			m.focus = paneList
			return m.openSelected()
		}
		seq, ok := seqOnLine(m.tl.View(), line)
		if !ok {
			return nil
		}
		m.focus = paneTimeline
		return m.tl.Moves().To(seq) // a seq, not a row count: a gap is one row for many seqs
	default:
		return nil
	}
	if m.focus == paneTimeline && m.tl != nil {
		return m.tl.Moves().Scroll(delta)
	}
	m.list.Move(delta)
	return nil
}

// at finds the pane and the line inside it under (x, y) by the layout the
// panes are drawn in: a border around each pane, the list left of the
// timeline when both fit; onlyList: the one pane drawn is the list.
func (ps paneSizes) at(x, y int, onlyList bool) (onList bool, line int, ok bool) {
	line = y - 1 // the top border
	if line < 0 || line >= ps.inner {
		return false, 0, false
	}
	onList = onlyList
	if !ps.single {
		onList = x < ps.listW+2
	}
	return onList, line, true
}

// seqOnLine reads the seq of a timeline row from its drawn line, so a line
// that is not a message (a read line, a bucket line, a collapsed run) has
// none.
func seqOnLine(view string, line int) (int64, bool) {
	lines := strings.Split(view, "\n")
	if line >= len(lines) {
		return 0, false
	}
	text := strings.TrimPrefix(ansi.Strip(lines[line]), "▸")
	seq, err := strconv.ParseInt(strings.Fields(text + " x")[0], 10, 64)
	if err != nil || len(text) < 2 {
		return 0, false
	}
	return seq, true
}
