package themes

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

func TestResolve(t *testing.T) {
	dark := func() bool { return true }
	light := func() bool { return false }
	cases := []struct {
		name, theme, noColor string
		isDark               func() bool
		want                 string
		wantErr              bool
	}{
		{name: "detected dark", isDark: dark, want: "dark"},
		{name: "detected light", isDark: light, want: "light"},
		{name: "explicit wins over detection", theme: "light", isDark: dark, want: "light"},
		{name: "high contrast", theme: "High-Contrast", want: "high-contrast"},
		{name: "NO_COLOR wins", theme: "dark", noColor: "1", want: "none"},
		{name: "unknown", theme: "neon", wantErr: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", c.noColor)
			th, err := Resolve(c.theme, c.isDark)
			if c.wantErr {
				if err == nil || !strings.Contains(err.Error(), "neon") {
					t.Fatalf("want an error naming the theme, got %v", err)
				}
				return
			}
			if err != nil || th.Name != c.want {
				t.Fatalf("got %q, %v; want %q", th.Name, err, c.want)
			}
		})
	}
}

func TestDetectionNotAskedWhenNameGiven(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	if _, err := Resolve("dark", func() bool { t.Fatal("terminal queried"); return false }); err != nil {
		t.Fatal(err)
	}
}

func TestSelectionVisibleInEveryTheme(t *testing.T) {
	for _, n := range Names() {
		th, err := Get(n)
		if err != nil {
			t.Fatal(err)
		}
		_, noBg := th.Selected.GetBackground().(lipgloss.NoColor)
		if n == "none" {
			if !noBg || !th.Selected.GetReverse() {
				t.Errorf("none: selection must use reverse video and no colour")
			}
			continue
		}
		if noBg {
			t.Errorf("%s: selected row has no background colour", n)
		}
	}
}

// TestNoColourStillMarksFocus: with NO_COLOR the focused pane cannot be
// told by colour, so its border is heavy where the others are light.
func TestNoColourStillMarksFocus(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	th, err := Resolve("dark", nil)
	if err != nil {
		t.Fatal(err)
	}
	if th.FocusedPane.GetBorderStyle() == th.Pane.GetBorderStyle() {
		t.Error("the focused pane's border is the same as the others'")
	}
	if d, _ := Get("dark"); d.FocusedPane.GetBorderStyle() != d.Pane.GetBorderStyle() {
		t.Error("with colour the focused pane keeps the light border (the accent marks it)")
	}
}
