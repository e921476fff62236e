package keyhelp

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
)

func env(readOnly bool) *common.Common {
	theme, _ := themes.Get("none")
	keys := keymap.Default()
	if readOnly {
		keys = keys.WithoutWrites()
	}
	return &common.Common{Theme: theme, Keys: keys, ReadOnly: readOnly}
}

func press(s string) tea.KeyMsg {
	if s == "esc" {
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func opened(e *common.Common, width, height int) *Model {
	h := help.New()
	b := New(e, &h)
	b.Open()
	b.SetSize(width, height)
	return &b
}

// TestEveryKeyIsListedOnATallScreen: every binding of the key map is on
// the help at 120x40, each within the screen's width, and how to close it.
func TestEveryKeyIsListedOnATallScreen(t *testing.T) {
	e := env(false)
	view := opened(e, 120, 40).View()
	for _, g := range e.Keys.FullHelp() {
		for _, b := range g {
			if b.Enabled() && !strings.Contains(view, b.Help().Desc) {
				t.Errorf("the help does not list %q (%s)", b.Help().Desc, b.Help().Key)
			}
		}
	}
	if !strings.Contains(view, "? or esc to close") {
		t.Errorf("the help does not say how to close it:\n%s", view)
	}
	for _, l := range strings.Split(view, "\n") {
		if ansi.StringWidth(l) > 120 {
			t.Errorf("a line is wider than the screen: %q", l)
		}
	}
}

// TestOnAShortScreenTheKeysScroll: the box keeps its title and close line
// and says which lines it shows; j moves them.
func TestOnAShortScreenTheKeysScroll(t *testing.T) {
	b := opened(env(false), 60, 14)
	view := b.View()
	if !strings.Contains(view, "Keys · lines 1–") || !strings.Contains(view, "to close") {
		t.Fatalf("a short help does not say which lines it shows and how to close:\n%s", view)
	}
	if h := len(strings.Split(view, "\n")); h > 14 {
		t.Errorf("the help is %d lines on a 14-line body", h)
	}
	b.Update(press("j"))
	if after := b.View(); !strings.Contains(after, "Keys · lines 2–") {
		t.Errorf("j did not scroll the keys:\n%s", after)
	}
}

// TestReadOnlyHelpSaysTheWritesAreOff: under --read-only the write keys
// are gone from the help, and it says why.
func TestReadOnlyHelpSaysTheWritesAreOff(t *testing.T) {
	view := opened(env(true), 120, 40).View()
	if !strings.Contains(view, "read-only: revoke, delete and mark read are off") {
		t.Errorf("a read-only help does not say the writes are off:\n%s", view)
	}
	if strings.Contains(view, "mark read to here") || strings.Contains(view, "delete for me") {
		t.Errorf("a read-only help lists a write key:\n%s", view)
	}
}

// TestHelpClosesByItsKeys: ?, esc and q close it; a movement key does not.
func TestHelpClosesByItsKeys(t *testing.T) {
	for _, k := range []string{"?", "esc", "q"} {
		b := opened(env(false), 120, 40)
		b.Update(press(k))
		if !b.Closed() {
			t.Errorf("%s does not close the help", k)
		}
	}
	b := opened(env(false), 120, 40)
	b.Update(press("j"))
	if b.Closed() {
		t.Error("j closed the help")
	}
}
