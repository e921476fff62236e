package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// helpBox is the ? overlay: every key of the key map, in columns.
type helpBox struct {
	e             *common
	help          *help.Model // the root's, with the theme's styles
	width, height int
	closed        bool
}

func (b *helpBox) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok && key.Matches(k, b.e.keys.Help, b.e.keys.Back, b.e.keys.Quit) {
		b.closed = true
	}
	return nil
}

// SetSize takes the screen's width and the height of the panes it floats over.
func (b *helpBox) SetSize(width, height int) { b.width, b.height = width, height }

func (b *helpBox) View() string {
	th := b.e.theme
	closeKeys := b.e.keys.Help.Help().Key + " or " + b.e.keys.Back.Help().Key + " to close"
	note := th.Muted.Render(closeKeys)
	if b.e.readOnly {
		note = th.Muted.Render("read-only: revoke, delete and mark read are off · " + closeKeys)
	}
	title := th.Title.Render("Keys")
	body := b.fullHelp(b.width-4, "\n\n") // the dialog's border and padding
	parts := []string{title, "", body, "", note}
	if lipgloss.Height(body)+6 > b.height {
		// A short screen: no blank lines and the title on the closing
		// line, so the box keeps its borders.
		parts = []string{b.fullHelp(b.width-4, "\n"), title + th.Muted.Render(" · ") + note}
	}
	return th.Dialog.MaxWidth(b.width).Render(lipgloss.JoinVertical(lipgloss.Left, parts...))
}

// fullHelp lays the help's columns out in as few rows as fit width: all
// side by side on a wide terminal, two by two at 60 columns, one under the
// other below that.
func (b *helpBox) fullHelp(width int, rowSep string) string {
	groups := b.e.keys.FullHelp()
	h := *b.help
	h.Width = 0 // measured here; help's own cut drops whole columns behind a "…"
	var out string
	for per := len(groups); per >= 1; per-- {
		var rows []string
		for i := 0; i < len(groups); i += per {
			rows = append(rows, h.FullHelpView(groups[i:min(i+per, len(groups))]))
		}
		out = strings.Join(rows, rowSep)
		if lipgloss.Width(out) <= width {
			return out
		}
	}
	return out
}

func (b *helpBox) ShortHelp() []key.Binding {
	return []key.Binding{joined("close", b.e.keys.Help, b.e.keys.Back)}
}

func (b *helpBox) FullHelp() [][]key.Binding { return b.e.keys.FullHelp() }
