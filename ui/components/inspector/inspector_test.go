package inspector

import (
	"fmt"
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
	if s == "esc" {
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func slotLines(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("field%02d: value %d", i, i))
	}
	return out
}

// TestTheSlotIsShownWholeAndScrolls: a long value wraps inside the box
// (never cut off), the title names the seq and how many lines there are,
// and j and k scroll what is shown.
func TestTheSlotIsShownWholeAndScrolls(t *testing.T) {
	in := New(env())
	in.SetSize(40, 12)
	long := "content: " + strings.Repeat("x", 70) + "END"
	in.SetContent(7, append([]string{long}, slotLines(20)...))
	view := in.View()
	if !strings.Contains(view, "Inspector · seq 7 · 24 lines") { // the long value takes four
		t.Errorf("the title does not name the seq and the lines:\n%s", view)
	}
	inner := strings.Join(strings.Fields(strings.NewReplacer("┃", "", "━", "").Replace(view)), "")
	if !strings.Contains(inner, "content:"+strings.Repeat("x", 70)+"END") {
		t.Errorf("the long value is cut off:\n%s", view)
	}
	for _, l := range strings.Split(view, "\n") {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("a line is wider than the 40-cell screen: %q", l)
		}
	}
	if strings.Contains(view, "field20") {
		t.Fatalf("a 12-line box shows every line:\n%s", view)
	}
	for range 25 {
		in.Update(press("j"))
	}
	if v := in.View(); !strings.Contains(v, "field20") || strings.Contains(v, "field01") {
		t.Errorf("j did not scroll to the last line:\n%s", v)
	}
	in.Update(press("k"))
	if in.Closed() {
		t.Error("a movement key closed the inspector")
	}
}

// TestTheInspectorClosesByItsKeys: esc, i (its own key) and q close it.
func TestTheInspectorClosesByItsKeys(t *testing.T) {
	for _, k := range []string{"esc", "i", "q"} {
		in := New(env())
		in.SetSize(40, 12)
		in.Update(press(k))
		if !in.Closed() {
			t.Errorf("%s does not close the inspector", k)
		}
	}
}
