package timeline

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/uitest"
)

// compareSection is the lines of the compare inspector's right column
// from "<side> as" to the next blank line.
func compareSection(view, side string) string {
	var out []string
	in := false
	for _, l := range strings.Split(view, "\n") {
		_, right, ok := strings.Cut(l, " │ ")
		if !ok {
			continue
		}
		right = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(right, " "), "│"), " ")
		switch {
		case strings.HasPrefix(right, side+" as "):
			in = true
		case in && right == "":
			in = false
		}
		if in {
			out = append(out, right)
		}
	}
	return strings.Join(out, "\n")
}

// TestCompareInspectorSaysWhoReadAndWhoWasTold: i in compare said what
// each viewer sees but not who has read the message nor which notification
// told of its revoke; one had to leave compare and switch viewer. Now each
// viewer's side says both, the pull of the notice as that viewer's.
func TestCompareInspectorSaysWhoReadAndWhoWasTold(t *testing.T) {
	p := comparePage(t, 180, 60, func(st *store.Store) { uitest.CarolMissesNTeam(t, st) })
	p.open(uitest.ChatT)
	p.compareWith("carol") // c, the picker, carol, enter
	p.jump(5)
	view := p.inspect()
	for side, wants := range map[string][]string{
		"A": {"readers     read by 1 of 2: Alice", "not read by 1 of 2: Bob", "revoke: told by n_team seq 1, pulled by alice: yes"},
		"B": {"readers     read by 1 of 2: Alice", "not read by 1 of 2: Bob", "revoke: told by n_team seq 1, pulled by carol: no"},
	} {
		got := compareSection(view, side)
		for _, want := range wants {
			if !strings.Contains(got, want) {
				t.Errorf("%s's side of the compare inspector lacks %q:\n%s\n\ninspector:\n%s", side, want, got, view)
			}
		}
	}
}
