package picker

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
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
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

var members = []store.Member{
	{UserID: "alice", Nickname: "Alice Chen", RoleLevel: 100},
	{UserID: "bob", Nickname: "Bob Müller"},
	{UserID: "carol", Nickname: "Carol Ng"},
}

func picked(p *Model, keys ...string) string {
	for _, k := range keys {
		p.Update(press(k))
	}
	if !p.Closed() {
		return "(open)"
	}
	return p.Chosen()
}

// TestTypingFiltersAndEnterChooses: the preferred member is selected at
// first; letters typed filter by ID or nickname; the arrows move; enter
// chooses, esc chooses no one; an ID that is no member is taken as typed.
func TestTypingFiltersAndEnterChooses(t *testing.T) {
	for _, c := range []struct {
		keys []string
		want string
	}{
		{[]string{"enter"}, "bob"},                      // prefer
		{[]string{"down", "enter"}, "carol"},            // from bob
		{[]string{"up", "up", "up", "enter"}, "alice"},  // stops at the first
		{[]string{"m", "ü", "l", "enter"}, "bob"},       // the nickname
		{[]string{"c", "r", "l", "enter"}, "carol"},     // letters apart, in order
		{[]string{"d", "a", "v", "e", "enter"}, "dave"}, // no member: the ID typed
		{[]string{"down", "esc"}, ""},                   // dismissed
		{[]string{"x"}, "(open)"},                       // still typing
	} {
		p := New(env(), false, "View as", members, "bob")
		if got := picked(&p, c.keys...); got != c.want {
			t.Errorf("%v: chose %q, want %q", c.keys, got, c.want)
		}
	}
}

// TestThePickerShowsTheChoicesAndWhatEnterDoes: names, nicknames and
// roles are listed, the selection marked; a filter matching no one says
// what enter will take; the hint names the action.
func TestThePickerShowsTheChoicesAndWhatEnterDoes(t *testing.T) {
	p := New(env(), true, "Compare alice with", members, "bob")
	p.SetSize(80, 20)
	view := p.View()
	for _, want := range []string{"Compare alice with", "alice  Alice Chen  (owner)", "▸ bob  Bob Müller", "carol  Carol Ng"} {
		if !strings.Contains(view, want) {
			t.Errorf("the picker does not show %q:\n%s", want, view)
		}
	}
	for _, k := range "zed" {
		p.Update(press(string(k)))
	}
	if v := p.View(); !strings.Contains(v, "no member matches: enter takes zed as a user ID") {
		t.Errorf("a filter matching no one does not say what enter takes:\n%s", v)
	}
	var hints []string
	for _, b := range p.ShortHelp() {
		hints = append(hints, b.Help().Desc)
	}
	if !strings.Contains(strings.Join(hints, " "), "compare") {
		t.Errorf("the compare picker's hints %v do not say enter compares", hints)
	}
}

// TestContextsMarkTheOneInUse: the context in use is marked *, the first
// other one is selected, and enter switches to it.
func TestContextsMarkTheOneInUse(t *testing.T) {
	p := NewContexts(env(), "Switch context (* in use)", []Context{
		{Name: "prod", About: "mongo-uri mongodb://…"}, {Name: "staging", About: "data ./staging.db"}}, "prod")
	p.SetSize(80, 20)
	view := p.View()
	if !strings.Contains(view, "  * prod     mongo-uri") || !strings.Contains(view, "▸   staging  data ./staging.db") {
		t.Errorf("the contexts are not listed with the one in use marked and the other selected:\n%s", view)
	}
	if !p.ForContext() {
		t.Error("a context picker does not say it is one")
	}
	if got := picked(&p, "enter"); got != "staging" {
		t.Errorf("enter chose %q, want staging", got)
	}
}
