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
		return m.click(msg.X, msg.Y)
	default:
		return nil
	}
	if m.focus == paneTimeline && m.tl != nil {
		return m.tl.Moves().Scroll(delta)
	}
	m.list.Move(delta)
	return nil
}

// click finds the pane and the line under (x, y) by the layout panes()
// draws: a border around each pane, the list left of the timeline when
// both fit.
func (m *Model) click(x, y int) tea.Cmd {
	ps := m.paneSizes()
	line := y - 1 // the top border
	if line < 0 || line >= ps.inner {
		return nil
	}
	onList := m.tl == nil || m.focus == paneList
	if !ps.single {
		onList = x < ps.listW+2
	}
	if onList {
		return m.clickList(line)
	}
	return m.clickTimeline(line)
}

func (m *Model) clickList(line int) tea.Cmd {
	if !m.list.RowAt(line) {
		return nil
	}
	m.focus = paneList
	return m.openSelected()
}

// clickTimeline reads the seq of the clicked row from the drawn line, so a
// line that is not a message (a read line, a bucket line, a collapsed run)
// does nothing.
func (m *Model) clickTimeline(line int) tea.Cmd {
	lines := strings.Split(m.tl.View(), "\n")
	if line >= len(lines) {
		return nil
	}
	text := strings.TrimPrefix(ansi.Strip(lines[line]), "▸")
	seq, err := strconv.ParseInt(strings.Fields(text + " x")[0], 10, 64)
	if err != nil || len(text) < 2 {
		return nil
	}
	m.focus = paneTimeline
	return m.tl.Moves().To(seq) // a seq, not a row count: a gap is one row for many seqs
}
