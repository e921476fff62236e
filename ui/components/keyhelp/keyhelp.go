// Package keyhelp is the ? overlay: every key of the key map, in columns; on
// a screen too short for them all it scrolls (a scrollbox), its title and
// close hint kept.
package keyhelp

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/components/scrollbox"
)

// Model is the help overlay.
type Model struct {
	e             *common.Common
	help          *help.Model // the root's, with the theme's styles
	box           scrollbox.Model
	width, height int
}

var _ common.Component = (*Model)(nil)

// New is the help drawn with h, closed by ?, esc and q.
func New(e *common.Common, h *help.Model) Model {
	return Model{e: e, help: h, box: scrollbox.New(e.Keys, e.Keys.Help, e.Keys.Back, e.Keys.Quit)}
}

// Open shows the keys from the first line.
func (b *Model) Open() { b.box.Open() }

// Closed reports that a close key ended the help.
func (b *Model) Closed() bool { return b.box.Closed() }

func (b *Model) Update(msg tea.Msg) tea.Cmd { return b.box.Update(msg) }

// SetSize takes the screen's width and the height of the panes it floats over.
func (b *Model) SetSize(width, height int) {
	b.width, b.height = width, height
	b.box.SetLines(b.lines())
	b.box.SetSize(width, b.room())
}

// lines are the keys as drawn on a short screen: columns with no blank
// line between their rows.
func (b *Model) lines() []string {
	return strings.Split(b.fullHelp(b.width-4, "\n"), "\n") // the dialog's border and padding
}

// room is how many lines of keys a scrolling box shows: the panes' height
// less the box's border, the title, the closing line and a line above and
// below, so the box floats inside the panes with their borders in sight.
func (b *Model) room() int { return max(1, b.height-6) }

func (b *Model) View() string {
	th := b.e.Theme
	closeKeys := b.e.Keys.Help.Help().Key + " or " + b.e.Keys.Back.Help().Key + " to close"
	if b.e.ReadOnly {
		closeKeys = "read-only: revoke, delete and mark read are off · " + closeKeys
	}
	title := th.Title.Render("Keys")
	body := b.fullHelp(b.width-4, "\n\n")
	if lipgloss.Height(body)+6 <= b.height {
		parts := []string{title, "", body, "", th.Muted.Render(closeKeys)}
		return th.Dialog.MaxWidth(b.width).Render(lipgloss.JoinVertical(lipgloss.Left, parts...))
	}
	// A short screen: no blank lines and the title on the closing line;
	// shorter still, the keys scroll between the title and the closing
	// line, so the box keeps its borders and says how to close it.
	lines := b.lines()
	if len(lines)+3 <= b.height-2 {
		parts := []string{strings.Join(lines, "\n"), title + th.Muted.Render(" · "+closeKeys)}
		return th.Dialog.MaxWidth(b.width).Render(lipgloss.JoinVertical(lipgloss.Left, parts...))
	}
	where := ""
	if b.box.Scrolls() {
		first, last, n := b.box.Range()
		where = fmt.Sprintf(" · lines %d–%d of %d", first, last, n)
		closeKeys = b.e.Keys.Up.Help().Key + " " + b.e.Keys.Down.Help().Key + " scroll · " + closeKeys
	}
	w := lipgloss.Width(strings.Join(lines, "\n"))
	parts := []string{title + th.Muted.Render(where), b.box.View(),
		th.Muted.Render(projection.Truncate(closeKeys, max(w, 20)))}
	return th.Dialog.MaxWidth(b.width).Render(lipgloss.JoinVertical(lipgloss.Left, parts...))
}

// fullHelp lays the help's columns out in as few rows as fit width: all
// side by side on a wide terminal, two by two at 60 columns, one under the
// other below that.
func (b *Model) fullHelp(width int, rowSep string) string {
	groups := b.e.Keys.FullHelp()
	h := *b.help
	h.Width = 0 // measured here; help's own cut drops whole columns behind a "…"
	var out string
	for per := len(groups); per >= 1; per-- {
		rowsOf := func(per int) int { return (len(groups) + per - 1) / per }
		if per > 1 && rowsOf(per-1) == rowsOf(per) {
			continue // as many rows with fewer columns: none left short (3 and 1)
		}
		aligned := alignKeys(groups, per)
		var rows []string
		for i := 0; i < len(aligned); i += per {
			rows = append(rows, h.FullHelpView(aligned[i:min(i+per, len(aligned))]))
		}
		out = strings.Join(rows, rowSep)
		if lipgloss.Width(out) <= width {
			return out
		}
	}
	return out
}

// alignKeys pads the keys and descriptions of groups laid out per to a
// row so that the groups in one column share its widest key and text:
// help sizes each group's columns by its own bindings, so the rows of
// groups under the first lost their alignment ("r revoke" under
// "↑/k   up").
func alignKeys(groups [][]key.Binding, per int) [][]key.Binding {
	if len(groups) <= per {
		return groups
	}
	keyW, descW := make([]int, per), make([]int, per)
	for i, g := range groups {
		for _, b := range g {
			if b.Enabled() {
				keyW[i%per] = max(keyW[i%per], lipgloss.Width(b.Help().Key))
				descW[i%per] = max(descW[i%per], lipgloss.Width(b.Help().Desc))
			}
		}
	}
	out := make([][]key.Binding, len(groups))
	for i, g := range groups {
		out[i] = make([]key.Binding, len(g))
		for j, b := range g {
			h := b.Help()
			if i%per < per-1 { // the last column's text ends the line
				h.Desc = common.PadRight(h.Desc, descW[i%per])
			}
			b.SetHelp(common.PadRight(h.Key, keyW[i%per]), h.Desc)
			out[i][j] = b
		}
	}
	return out
}

func (b *Model) ShortHelp() []key.Binding {
	return []key.Binding{common.Joined("close", b.e.Keys.Help, b.e.Keys.Back)}
}

func (b *Model) FullHelp() [][]key.Binding { return b.e.Keys.FullHelp() }
