// Package inspector is the box that shows the raw slot under the
// timeline's cursor, whole, scrolled over the panes.
package inspector

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/ui/common"
)

// Model is the raw slot under the timeline's cursor, scrolled in a
// viewport over the whole body. The root gives it the lines whenever the
// timeline may have changed (layout), so View only draws.
type Model struct {
	e             *common.Common
	vp            viewport.Model
	seq           int64
	lines         int
	width, height int
	closed        bool
}

var _ common.Component = (*Model)(nil)

// New is an inspector showing its lines from the top.
func New(e *common.Common) Model { return Model{e: e, vp: viewport.New(0, 0)} }

// Closed reports that a close key ended it.
func (in *Model) Closed() bool { return in.closed }

// SetSize takes the body's size: a border around, a title line on top.
func (in *Model) SetSize(width, height int) {
	in.width, in.height = width, height
	in.vp.Width, in.vp.Height = max(0, width-4), max(0, height-3)
	in.vp.SetYOffset(in.vp.YOffset)
}

// SetContent shows lines for seq, each wrapped to the width (a value is
// never cut off), and keeps the scroll position within them.
func (in *Model) SetContent(seq int64, lines []string) {
	var cut []string
	for _, l := range lines {
		cut = append(cut, common.WrapCells(l, in.width-4)...)
	}
	in.seq, in.lines = seq, len(cut)
	in.vp.SetContent(strings.Join(cut, "\n"))
	in.vp.SetYOffset(in.vp.YOffset)
}

func (in *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := in.e.Keys
	switch {
	case key.Matches(k, keys.Back, keys.Inspect, keys.Quit):
		in.closed = true
	case key.Matches(k, keys.Up):
		in.vp.ScrollUp(1)
	case key.Matches(k, keys.Down):
		in.vp.ScrollDown(1)
	case key.Matches(k, keys.PageUp):
		in.vp.ScrollUp(10)
	case key.Matches(k, keys.PageDown):
		in.vp.ScrollDown(10)
	}
	return nil
}

func (in *Model) View() string {
	th := in.e.Theme
	keys := in.e.Keys
	// Cut, never wrapped: a wrapped title pushes the top border off a short screen.
	title := fmt.Sprintf("Inspector · seq %d · %d lines · %s/%s scroll · %s close",
		in.seq, in.lines, common.KeyName(keys.Down), common.KeyName(keys.Up), common.KeyName(keys.Back))
	body := th.Title.Render(projection.Truncate(title, in.width-2)) + "\n" + in.vp.View()
	return th.FocusedPane.Width(in.width - 2).Render(body)
}

func (in *Model) ShortHelp() []key.Binding {
	keys := in.e.Keys
	return []key.Binding{keys.Up, keys.Down, keys.PageUp, keys.PageDown, keys.Back}
}

func (in *Model) FullHelp() [][]key.Binding { return [][]key.Binding{in.ShortHelp()} }
