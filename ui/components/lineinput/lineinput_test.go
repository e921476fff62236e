package lineinput

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
)

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// TestAValueOfferedSelectedIsReplaced: a value offered whole (the last
// search) is replaced by the first key typed, cleared by backspace, and
// submitted as it is by enter.
func TestAValueOfferedSelectedIsReplaced(t *testing.T) {
	theme, _ := themes.Get("none")
	e := &common.Common{Theme: theme, Keys: keymap.Default()}
	const search Purpose = 1
	for _, c := range []struct {
		keys []tea.KeyMsg
		want string
	}{
		{[]tea.KeyMsg{runes("b"), runes("o")}, "bo"},
		{[]tea.KeyMsg{{Type: tea.KeyBackspace}, runes("x")}, "x"},
		{nil, "hello 11"},
	} {
		in := New(e)
		in.Start(search, "search: ", "hello 11", true)
		for _, k := range c.keys {
			in.Update(k)
		}
		in.Update(tea.KeyMsg{Type: tea.KeyEnter})
		end, ok := in.Ended()
		if !ok || !end.Submitted || end.Purpose != search || end.Value != c.want || in.Open() {
			t.Errorf("%v then enter: ended %v %+v, open %v; want %q submitted", c.keys, ok, end, in.Open(), c.want)
		}
	}
}

// TestPromptIsDrawnAsRowsAreMeasured: an emoji with a skin tone, a family
// joined by ZWJ and a flag, typed or pasted into a prompt, draw a line no
// wider than the screen, measured as message rows are, and holding no
// character terminals draw at widths of their own (tmux draws 👍🏽 in four
// cells where the layout counts two, and the screen scrolled up a line).
func TestPromptIsDrawnAsRowsAreMeasured(t *testing.T) {
	theme, _ := themes.Get("none")
	e := &common.Common{Theme: theme, Keys: keymap.Default()}
	for _, emoji := range []string{"👍🏽", "👨‍👩‍👧", "🇯🇵", "❤️"} {
		for _, width := range []int{8, 12, 20, 40, 120} {
			for _, paste := range []bool{false, true} {
				in := New(e)
				in.SetSize(width, 1)
				in.Start(1, "search: ", "", false)
				for range 3 {
					in.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(emoji), Paste: paste})
					in.Update(runes("a"))
				}
				drawn := ansi.Strip(in.View())
				if w := projection.Width(drawn); w > width {
					t.Errorf("%s at %d columns: the prompt draws %d cells: %q", emoji, width, w, drawn)
				}
				if projection.Sanitize(drawn) != drawn {
					t.Errorf("%s at %d columns: the prompt draws what rows would not: %q (rows draw %q)", emoji, width, drawn, projection.Sanitize(drawn))
				}
			}
		}
	}
	in := New(e)
	in.Start(1, "search: ", "", false)
	in.Update(runes("a👍🏽b"))
	in.Update(tea.KeyMsg{Type: tea.KeyLeft})
	in.Update(runes("c"))
	if got := in.Value(); got != "a👍cb" {
		t.Errorf("typed a👍🏽b, left, c: value %q, want a👍cb (the skin tone left out, the cursor where it was)", got)
	}
}
