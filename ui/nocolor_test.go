package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// withProfile draws with a colour terminal's profile for one test (the
// package draws plain text otherwise, see TestMain).
func withProfile(t *testing.T, p termenv.Profile) {
	t.Helper()
	old := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(p)
	t.Cleanup(func() { lipgloss.SetColorProfile(old) })
}

var sgrRE = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

// colourCodes lists the SGR sequences in s that set a colour.
func colourCodes(s string) []string {
	var out []string
	for _, m := range sgrRE.FindAllStringSubmatch(s, -1) {
		params := strings.Split(m[1], ";")
		for i := 0; i < len(params); i++ {
			p := params[i]
			colour := p == "38" || p == "48" || p == "58"
			if n := len(p); n == 2 && (p[0] == '3' || p[0] == '4' || p[0] == '9') && p[1] != '9' {
				colour = true
			}
			if n := len(p); n == 3 && p[:2] == "10" {
				colour = true
			}
			if colour {
				out = append(out, m[0])
				break
			}
		}
	}
	return out
}

// TestThemeNoneEmitsNoColour: on a true-colour terminal, --theme none
// draws every screen (list, timeline, help, input, picker, dialog) without
// a single colour, and the focused pane is still marked by a heavy border.
func TestThemeNoneEmitsNoColour(t *testing.T) {
	withProfile(t, termenv.TrueColor)
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	opts.Theme = "none"
	d := newDriver(t, st, opts, 120, 40)
	screens := map[string]string{"list": d.m.View()}
	d.open(chatAB)
	screens["timeline"] = d.m.View()
	d.keys("?")
	screens["help"] = d.m.View()
	d.keys("esc", ":")
	d.typeText("1")
	screens["jump prompt"] = d.m.View()
	d.keys("esc", "v")
	screens["picker"] = d.m.View()
	d.keys("esc")
	d.jump(11)
	d.keys("d")
	screens["dialog"] = d.m.View()
	for name, s := range screens {
		if codes := colourCodes(s); len(codes) > 0 {
			t.Errorf("%s: colour codes %q with --theme none", name, codes[:min(3, len(codes))])
		}
	}
	tl := screens["timeline"]
	if !strings.Contains(tl, "┏") || !strings.Contains(tl, "╭") {
		t.Errorf("the focused pane is not told apart without colour:\n%s", tl)
	}
	if !strings.Contains(screens["list"], "\x1b[7") && !strings.Contains(screens["list"], ";7m") {
		t.Error("the selected row is not in reverse video")
	}
}
