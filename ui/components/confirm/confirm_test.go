package confirm

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
)

func env() *common.Common {
	theme, _ := themes.Get("none")
	return &common.Common{Theme: theme, Keys: keymap.Default()}
}

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func write() tea.Msg { return nil }

// TestAnswersAreTheKeyMapsConfirmAndCancel: y and enter confirm, n, esc and
// q cancel, and any other key leaves the question open.
func TestAnswersAreTheKeyMapsConfirmAndCancel(t *testing.T) {
	for _, c := range []struct {
		keys                []string
		answered, confirmed bool
	}{
		{[]string{"y"}, true, true},
		{[]string{"enter"}, true, true},
		{[]string{"n"}, true, false},
		{[]string{"esc"}, true, false},
		{[]string{"q"}, true, false},
		{[]string{"j", "x"}, false, false},
	} {
		d := New(env(), Dialog{Title: "Delete for bob only?", Run: write})
		for _, k := range c.keys {
			d.Update(press(k))
		}
		if a, ok := d.Answer(); a != c.answered || ok != c.confirmed {
			t.Errorf("%v: answered %v confirmed %v, want %v %v", c.keys, a, ok, c.answered, c.confirmed)
		}
	}
}

// TestTheDialogSaysWhatItAsksAndHowToAnswer: the title, every line wrapped
// inside the dialog (nothing cut off), and the answers named by their
// keys; a refusal offers only to close.
func TestTheDialogSaysWhatItAsksAndHowToAnswer(t *testing.T) {
	long := "seq 12: " + strings.Repeat("a long message word ", 12) + "END"
	d := New(env(), Dialog{Title: "Revoke for everyone?", Lines: []string{long, "operator: ops"}, Run: write})
	d.SetSize(60, 20)
	view := d.View()
	flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "─", " ").Replace(view)), " ")
	for _, want := range []string{"Revoke for everyone?", "END", "operator: ops", "y/enter: do it", "n/esc: cancel"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the dialog does not show %q:\n%s", want, view)
		}
	}
	for _, l := range strings.Split(view, "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("a line is %d cells wide on a 60-cell screen: %q", w, l)
		}
	}
	refusal := New(env(), Dialog{Title: "Revoke refused", Lines: []string{"bob may not revoke it: not the sender"}})
	refusal.SetSize(60, 20)
	if v := refusal.View(); strings.Contains(v, "do it") || !strings.Contains(v, "n/esc: close") {
		t.Errorf("a refusal offers something to confirm, or no way to close:\n%s", v)
	}
}
