// Package themes turns a small colour palette into the lipgloss styles the
// UI draws with. Every look the UI has comes from here, so a theme is one
// palette and nothing else.
package themes

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/chatlens/chatlens/store/bucket"
)

// Palette is the handful of colours a theme chooses. An empty colour means
// "the terminal's default".
type Palette struct {
	Text     string // ordinary text
	Muted    string // times, IDs, hints
	Accent   string // titles, the focused border, the cursor marker
	Border   string // unfocused borders
	SelectFg string // selected row
	SelectBg string
	Warn     string // cache warnings, the read line
	Error    string // failures
	Revoked  string // revoked messages
	Deleted  string // deleted-for-viewer messages
	Hole     string // holes and malformed slots
	DiffBg   string // compare rows that differ
	BarFg    string // status bar
	BarBg    string
}

// Theme is the set of styles the UI uses.
type Theme struct {
	Name string

	Text, Muted, Title, Accent lipgloss.Style
	Selected                   lipgloss.Style
	Revoked, Deleted, Hole     lipgloss.Style
	Problem, Warn, Error       lipgloss.Style
	ReadLine, BucketLine, Diff lipgloss.Style
	Match                      lipgloss.Style // a search match inside a row, over the row's style
	StatusBar, Dialog          lipgloss.Style
	Pane, FocusedPane          lipgloss.Style
}

var builtins = map[string]Palette{
	"dark": {
		Text: "252", Muted: "245", Accent: "39", Border: "240",
		SelectFg: "231", SelectBg: "24", Warn: "214", Error: "203",
		Revoked: "177", Deleted: "244", Hole: "238", DiffBg: "52",
		BarFg: "252", BarBg: "236",
	},
	"light": {
		Text: "235", Muted: "242", Accent: "25", Border: "250",
		SelectFg: "232", SelectBg: "153", Warn: "130", Error: "160",
		Revoked: "91", Deleted: "246", Hole: "250", DiffBg: "224",
		BarFg: "235", BarBg: "254",
	},
	// high-contrast keeps to the 16 basic colours, which every terminal and
	// most colour-blind palettes map to distinct, strong hues.
	"high-contrast": {
		Text: "15", Muted: "15", Accent: "11", Border: "15",
		SelectFg: "0", SelectBg: "11", Warn: "11", Error: "9",
		Revoked: "13", Deleted: "14", Hole: "15", DiffBg: "1",
		BarFg: "0", BarBg: "15",
	},
	// none draws with attributes only (NO_COLOR).
	"none": {},
}

// Names lists the built-in themes.
func Names() []string {
	out := make([]string, 0, len(builtins))
	for n := range builtins {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Get returns a built-in theme by name.
func Get(name string) (Theme, error) {
	p, ok := builtins[strings.ToLower(name)]
	if !ok {
		return Theme{}, fmt.Errorf("unknown theme %s (choose %s)", bucket.QuoteName(name), strings.Join(Names(), ", "))
	}
	t := New(p)
	t.Name = strings.ToLower(name)
	return t, nil
}

// Resolve picks the theme to start with: NO_COLOR wins over everything, an
// explicit name next, else dark or light from the terminal's background.
// isDark is only called when the choice depends on it, because asking the
// terminal must happen before the program takes over the screen.
func Resolve(name string, isDark func() bool) (Theme, error) {
	if NoColor() {
		return Get("none")
	}
	if name == "" {
		name = "light"
		if isDark == nil || isDark() {
			name = "dark"
		}
	}
	return Get(name)
}

// NoColor reports whether the user asked for no colour (https://no-color.org).
func NoColor() bool { return os.Getenv("NO_COLOR") != "" }

// New builds the styles of a palette.
func New(p Palette) Theme {
	fg := func(c string) lipgloss.Style {
		s := lipgloss.NewStyle()
		if c != "" {
			s = s.Foreground(lipgloss.Color(c))
		}
		return s
	}
	bg := func(s lipgloss.Style, c string) lipgloss.Style {
		if c != "" {
			s = s.Background(lipgloss.Color(c))
		}
		return s
	}
	border := func(c string) lipgloss.Style {
		s := lipgloss.NewStyle().Border(lipgloss.RoundedBorder())
		if c != "" {
			s = s.BorderForeground(lipgloss.Color(c))
		}
		return s
	}
	t := Theme{
		Text:        fg(p.Text),
		Muted:       fg(p.Muted),
		Title:       fg(p.Accent).Bold(true),
		Accent:      fg(p.Accent),
		Selected:    bg(fg(p.SelectFg), p.SelectBg).Bold(true),
		Revoked:     fg(p.Revoked).Italic(true),
		Deleted:     fg(p.Deleted).Strikethrough(true),
		Hole:        fg(p.Hole).Faint(true),
		Problem:     fg(p.Error).Bold(true),
		Warn:        fg(p.Warn).Bold(true),
		Error:       fg(p.Error).Bold(true),
		ReadLine:    fg(p.Warn),
		BucketLine:  fg(p.Muted).Faint(true),
		Diff:        bg(fg(p.Text), p.DiffBg).Bold(true),
		Match:       fg(p.Warn).Bold(true).Underline(true), // underlined: seen without colour too
		StatusBar:   bg(fg(p.BarFg), p.BarBg),
		Dialog:      border(p.Accent).Padding(0, 1),
		Pane:        border(p.Border),
		FocusedPane: border(p.Accent),
	}
	if p.SelectBg == "" {
		// Without colour the selection must still show: reverse video.
		t.Selected = t.Selected.Reverse(true)
		t.Diff = t.Diff.Underline(true)
	}
	if p.Accent == "" || p.Accent == p.Border {
		// The focused pane cannot be told by colour: a heavy border marks it.
		t.FocusedPane = t.FocusedPane.Border(lipgloss.ThickBorder())
	}
	return t
}
