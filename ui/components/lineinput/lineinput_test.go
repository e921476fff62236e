package lineinput

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
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
