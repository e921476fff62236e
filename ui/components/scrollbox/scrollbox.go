// Package scrollbox is a box of lines over the panes that scrolls with the
// movement keys and closes with its own keys: the help (?) and the message
// log (L) are each one, around their own lines.
package scrollbox

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
)

// Model holds the lines, which of them are shown, and whether a close key
// ended it. Its owner gives it the lines and the room for them (SetLines,
// SetSize), draws the frame around View and names its keys.
type Model struct {
	keys   keymap.KeyMap
	close  []key.Binding
	lines  []string
	top    int // the first line shown
	room   int // how many lines are shown
	closed bool
}

// New is a box closed by any of close.
func New(keys keymap.KeyMap, close ...key.Binding) Model {
	return Model{keys: keys, close: close, room: 1}
}

// Open shows the box from its first line.
func (b *Model) Open() { b.closed, b.top = false, 0 }

// Closed reports that a close key ended the box.
func (b *Model) Closed() bool { return b.closed }

// SetLines gives the box its lines, keeping the scroll within them.
func (b *Model) SetLines(lines []string) {
	b.lines = lines
	b.clamp()
}

// Update closes the box on a close key, else moves the lines shown.
func (b *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	if key.Matches(k, b.close...) {
		b.closed = true
	} else if top, ok := scrollTop(k, b.keys, b.top, b.room, len(b.lines)); ok {
		b.top = top
	}
	return nil
}

// SetSize takes the lines the box shows at once; the width is its owner's.
func (b *Model) SetSize(_, height int) {
	b.room = max(1, height)
	b.clamp()
}

func (b *Model) clamp() { b.top = max(0, min(b.top, len(b.lines)-b.room)) }

// Shown is the lines on screen.
func (b *Model) Shown() []string {
	if len(b.lines) == 0 {
		return nil
	}
	return b.lines[min(b.top, len(b.lines)-1):min(len(b.lines), b.top+b.room)]
}

// View is the lines on screen, one under the other.
func (b *Model) View() string { return strings.Join(b.Shown(), "\n") }

// Scrolls reports more lines than fit.
func (b *Model) Scrolls() bool { return len(b.lines) > b.room }

// Range is the first and last line shown, counted from 1, and how many
// there are: for "lines 3–20 of 41".
func (b *Model) Range() (first, last, of int) {
	return b.top + 1, b.top + len(b.Shown()), len(b.lines)
}

// scrollTop is where the movement keys put the first shown line of n
// lines, room of them on screen, from top: clamped so the last screen is
// full. ok is false for a key that moves nothing.
func scrollTop(k tea.KeyMsg, keys keymap.KeyMap, top, room, n int) (next int, ok bool) {
	switch {
	case key.Matches(k, keys.Up):
		top--
	case key.Matches(k, keys.Down):
		top++
	case key.Matches(k, keys.PageUp):
		top -= room
	case key.Matches(k, keys.PageDown):
		top += room
	case key.Matches(k, keys.Top):
		top = 0
	case key.Matches(k, keys.Bottom):
		top = n
	default:
		return top, false
	}
	return max(0, min(top, n-room)), true
}
