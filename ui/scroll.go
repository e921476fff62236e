package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
)

// scrollTop is where the movement keys put the first shown line of a
// scrolling box of n lines, room of them on screen, from top: clamped so
// the last screen is full. ok is false for a key that moves nothing.
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
