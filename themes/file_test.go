package themes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

// themeFile writes theme.json where LoadFile looks by default.
func themeFile(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HOME", dir) // (os.UserConfigDir on macOS)
	path := DefaultPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Issue 27, item 11: a theme file beside keys.json sets colours of the
// palette by name over the theme chosen or detected.
func TestThemeFileColoursTheChosenTheme(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	themeFile(t, `{"accent": "#ff8800", "Diff-Bg": 52, "barbg": ""}`)
	th, err := Start("light", nil)
	if err != nil {
		t.Fatal(err)
	}
	if th.Name != "light" {
		t.Errorf("theme %q, want light with the file's colours", th.Name)
	}
	if got := th.Accent.GetForeground(); got != lipgloss.Color("#ff8800") {
		t.Errorf("accent %v, want the file's #ff8800", got)
	}
	if got := th.Diff.GetBackground(); got != lipgloss.Color("52") {
		t.Errorf("diff background %v, want the file's 52", got)
	}
	if _, none := th.StatusBar.GetBackground().(lipgloss.NoColor); !none {
		t.Errorf("status bar background %v, want the terminal's own (\"\")", th.StatusBar.GetBackground())
	}
	if got := th.Text.GetForeground(); got != lipgloss.Color(builtins["light"].Text) {
		t.Errorf("text %v: a colour the file does not name is the theme's", got)
	}

	// No colour stays no colour.
	if th, _ := Start("none", nil); th.Accent.GetForeground() != (lipgloss.NoColor{}) {
		t.Errorf("--theme none drew the file's accent %v", th.Accent.GetForeground())
	}
	t.Setenv("NO_COLOR", "1")
	if th, _ := Start("dark", nil); th.Name != "none" || th.Accent.GetForeground() != (lipgloss.NoColor{}) {
		t.Errorf("NO_COLOR: theme %q, accent %v; want none, no colour", th.Name, th.Accent.GetForeground())
	}
}

// The file is checked as keys.json is: one line naming the file, the
// nearest name to a misspelt one, what a colour is for a bad one.
func TestThemeFileMistakes(t *testing.T) {
	cases := []struct{ body, want string }{
		{`{"acent": "39"}`, `unknown colour name "acent": did you mean "accent"?`},
		{`{"zzzzzzzz": "39"}`, `unknown colour name "zzzzzzzz" (known: accent, barbg, barfg, border, deleted, diffbg, error, hole, muted, revoked, selectbg, selectfg, text, warn)`},
		{`{"accent": "orange"}`, `colour "accent": "orange" is not a colour: an ANSI colour number 0-255, #rgb or #rrggbb ("" is the terminal's own)`},
		{`{"accent": "256"}`, `"256" is not a colour`},
		{`{"accent": "#12345"}`, `"#12345" is not a colour`},
		{`{"accent": null}`, `colour "accent": want a colour such as "39" or "#ff8800", got null`},
		{`{"accent": "39", "Accent": "40"}`, `colour "Accent" is given twice`},
		{`["accent"]`, `not a JSON object`},
		{`{"accent": "39"} {}`, `more after the object`},
	}
	for _, c := range cases {
		path := themeFile(t, c.body)
		_, err := LoadFile("")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), path+": ") ||
			strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v; want one line starting with the path and saying %q", c.body, err, c.want)
		}
		if _, err := Start("dark", nil); err == nil {
			t.Errorf("%s: the UI would start with it", c.body)
		}
	}
}

func TestNoThemeFileIsNoError(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	if c, err := LoadFile(""); err != nil || c != nil {
		t.Errorf("no file: %v, %v", c, err)
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "named.json")); err == nil {
		t.Error("a named file that is missing is an error")
	}
}
