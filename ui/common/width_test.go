package common

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/projection"
)

// TestWrapKeepsValuesWhole: the inspector's lines wrap at spaces, so an ID
// is never broken where it fits a line (copying it from the screen gets
// it whole); an ID longer than a line starts a line of its own; nothing
// is lost and no line is wider than asked.
func TestWrapKeepsValuesWhole(t *testing.T) {
	const id = "4f0e42df56cea015784f5046752fb3f6"
	long := strings.Repeat("0123456789", 9)
	for _, c := range []struct {
		line  string
		width int
		whole []string // values each found whole on one line
		alone string   // a value that starts its own line
	}{
		{`    "clientMsgID": "` + id + `",`, 40, []string{`"` + id + `",`}, ""},
		{`    "serverMsgID": "` + id + `", "sendID": "` + id + `"`, 76, []string{`"` + id + `",`, `"` + id + `"`}, ""},
		{`  content: ` + long + ` end`, 76, nil, long[:76]},
	} {
		out := WrapCells(c.line, c.width)
		for _, l := range out {
			if w := projection.Width(l); w > c.width {
				t.Errorf("%q at %d: a line of %d cells: %q", c.line, c.width, w, l)
			}
		}
		joined := strings.Join(out, "\n")
		for _, v := range c.whole {
			found := false
			for _, l := range out {
				found = found || strings.Contains(l, v)
			}
			if !found {
				t.Errorf("%q at %d: %s is broken:\n%s", c.line, c.width, v, joined)
			}
		}
		if c.alone != "" && !strings.Contains("\n"+joined, "\n"+c.alone) {
			t.Errorf("%q at %d: the long value does not start its own line:\n%s", c.line, c.width, joined)
		}
		if got, want := strings.Join(strings.Fields(strings.ReplaceAll(joined, "\n", "")), ""), strings.Join(strings.Fields(c.line), ""); got != want {
			t.Errorf("%q at %d: wrapped text lost something:\n%s", c.line, c.width, joined)
		}
	}
}
