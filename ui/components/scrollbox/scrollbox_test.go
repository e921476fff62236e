package scrollbox

import (
	"fmt"
	"slices"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
)

// TestScrollStaysWithinTheLines: the movement keys move the lines shown by
// one, a page, or to an end, never past the last full screen; a close key
// ends the box, and opening it again starts from the first line.
func TestScrollStaysWithinTheLines(t *testing.T) {
	keys := keymap.Default()
	b := New(keys, keys.Back)
	var lines []string
	for i := 1; i <= 10; i++ {
		lines = append(lines, fmt.Sprint(i))
	}
	b.SetLines(lines)
	b.SetSize(20, 4)
	for _, c := range []struct {
		key         tea.KeyMsg
		first, last int
	}{
		{tea.KeyMsg{Type: tea.KeyDown}, 2, 5},
		{tea.KeyMsg{Type: tea.KeyPgDown}, 6, 9},
		{tea.KeyMsg{Type: tea.KeyPgDown}, 7, 10}, // the last screen stays full
		{tea.KeyMsg{Type: tea.KeyUp}, 6, 9},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g")}, 1, 4},
		{tea.KeyMsg{Type: tea.KeyUp}, 1, 4},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("G")}, 7, 10},
	} {
		b.Update(c.key)
		if first, last, n := b.Range(); first != c.first || last != c.last || n != 10 || b.Closed() {
			t.Errorf("%s: lines %d–%d of %d (closed %v), want %d–%d of 10", c.key, first, last, n, b.Closed(), c.first, c.last)
		}
	}
	if got := b.Shown(); !slices.Equal(got, lines[6:]) || !b.Scrolls() {
		t.Errorf("shown %v, want the last four lines", got)
	}
	b.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if !b.Closed() {
		t.Error("esc did not close the box")
	}
	b.Open()
	if first, _, _ := b.Range(); first != 1 || b.Closed() {
		t.Errorf("opened again at line %d (closed %v), want the first", first, b.Closed())
	}
}
