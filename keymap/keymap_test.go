package keymap

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "ctrl+r":
		return tea.KeyMsg{Type: tea.KeyCtrlR}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func TestDefaultsOfIssue3(t *testing.T) {
	k := Default()
	cases := []struct {
		key  string
		want key.Binding
	}{
		{"j", k.Down}, {"k", k.Up}, {"g", k.Top}, {"G", k.Bottom}, {"tab", k.SwitchPane},
		{"enter", k.Open}, {"v", k.ViewAs}, {"c", k.Compare}, {"r", k.Revoke}, {"d", k.Delete},
		{"m", k.MarkRead}, {"i", k.Inspect}, {"/", k.Search}, {":", k.Jump}, {"y", k.Copy},
		{"?", k.Help}, {"q", k.Quit},
	}
	for _, c := range cases {
		if !key.Matches(press(c.key), c.want) {
			t.Errorf("%q does not trigger %q", c.key, c.want.Help().Desc)
		}
	}
}

func TestOverrideFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(path, []byte(`{"revoke": ["ctrl+r"], "Quit": ["Q"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	k, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if key.Matches(press("r"), k.Revoke) || !key.Matches(press("ctrl+r"), k.Revoke) {
		t.Error("revoke not moved to ctrl+r")
	}
	if key.Matches(press("q"), k.Quit) || !key.Matches(press("Q"), k.Quit) {
		t.Error("quit not moved to Q")
	}
	if k.Revoke.Help().Key != "ctrl+r" {
		t.Errorf("help still says %q", k.Revoke.Help().Key)
	}
	if !key.Matches(press("d"), k.Delete) {
		t.Error("an action not in the file lost its default")
	}
}

func TestBadOverrides(t *testing.T) {
	for name, body := range map[string]string{
		"not json":       `{revoke`,
		"unknown action": `{"launch": ["x"]}`,
		"no keys":        `{"quit": []}`,
	} {
		t.Run(name, func(t *testing.T) {
			k := Default()
			err := k.Apply([]byte(body))
			if err == nil || strings.Contains(err.Error(), "\n") {
				t.Fatalf("want a one-line error, got %v", err)
			}
		})
	}
}

func TestMissingFiles(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "absent.json")); err == nil {
		t.Error("a named file that is missing must be reported")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	if _, err := Load(""); err != nil {
		t.Errorf("no file at the default path is fine, got %v", err)
	}
}

// TestUserFileAtTheDefaultPath: the README's keys.json under the user's
// config dir is read when no file is named.
func TestUserFileAtTheDefaultPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if err := os.MkdirAll(filepath.Join(dir, "chatlens"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "chatlens", "keys.json"), []byte(`{"revoke":["ctrl+r"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	k, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if keys := k.Revoke.Keys(); len(keys) != 1 || keys[0] != "ctrl+r" {
		t.Errorf("revoke bound to %v, want [ctrl+r] from keys.json", keys)
	}
}

func TestWithoutWrites(t *testing.T) {
	k := Default().WithoutWrites()
	for _, b := range []key.Binding{k.Revoke, k.Delete, k.MarkRead} {
		if b.Enabled() {
			t.Errorf("%s still enabled in read-only mode", b.Help().Desc)
		}
	}
}

// TestCompareKeys: the compare view's keys have defaults and move with an
// override file like the others, help text included.
func TestCompareKeys(t *testing.T) {
	k := Default()
	for s, b := range map[string]key.Binding{"]": k.NextDiff, "[": k.PrevDiff, "D": k.DiffOnly} {
		if !key.Matches(press(s), b) {
			t.Errorf("%q does not trigger %q", s, b.Help().Desc)
		}
	}
	if err := k.Apply([]byte(`{"nextdiff": ["."], "prevdiff": [","], "diffonly": ["O"]}`)); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(press("."), k.NextDiff) || key.Matches(press("]"), k.NextDiff) || k.NextDiff.Help().Key != "." {
		t.Error("nextdiff not moved to .")
	}
	if !key.Matches(press(","), k.PrevDiff) || !key.Matches(press("O"), k.DiffOnly) {
		t.Error("prevdiff or diffonly not moved")
	}
}

// TestValidation: each mistake in a keys.json is one line naming the file
// and what is wrong.
func TestValidation(t *testing.T) {
	for name, c := range map[string]struct{ body, want string }{
		"unknown key name":         {`{"revoke": ["ctrl+banana"]}`, `unknown key name "ctrl+banana"`},
		"word for a key":           {`{"quit": ["space"]}`, `unknown key name "space"`},
		"shadows a default":        {`{"revoke": ["d"]}`, `key "d" is bound to both delete and revoke`},
		"shadows another override": {`{"revoke": ["x"], "copy": ["x"]}`, `key "x" is bound to both copy and revoke`},
		"dialog keys clash":        {`{"confirm": ["n"]}`, `key "n" is bound to both cancel and confirm`},
		"input keys clash":         {`{"choiceup": ["esc"]}`, `key "esc" is bound to both choiceup and dismiss`},
		"action left with no key":  {`{"follow": []}`, `action "follow" has no keys`},
		"action given twice":       {`{"revoke": ["ctrl+r"], "revoke": ["ctrl+x"]}`, `action "revoke" is given twice`},
		"action given twice, case": {`{"revoke": ["ctrl+r"], "Revoke": ["ctrl+x"]}`, `action "Revoke" is given twice`},
		"null file":                {`null`, `not a JSON object`},
		"null list":                {`{"revoke": null}`, `action "revoke": want a list of key names, got null`},
		"null key":                 {`{"revoke": ["ctrl+r", null]}`, `action "revoke": null in its list`},
		"two objects":              {`{"revoke": ["ctrl+r"]} {}`, `more after the object`},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "keys.json")
			if err := os.WriteFile(path, []byte(c.body), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path)
			if err == nil || strings.Contains(err.Error(), "\n") {
				t.Fatalf("want a one-line error, got %v", err)
			}
			if !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %q, want it to start with the path and say %q", err, c.want)
			}
		})
	}
}

// TestValidFiles: keys Bubble Tea names, alt+ keys, and a dialog key equal
// to an action's key are all fine.
func TestValidFiles(t *testing.T) {
	bom := Default() // Windows editors start a UTF-8 file with a BOM
	if err := bom.Apply([]byte("\xef\xbb\xbf" + `{"revoke": ["ctrl+r"]}`)); err != nil || !key.Matches(press("ctrl+r"), bom.Revoke) {
		t.Errorf("a keys.json starting with a BOM: %v", err)
	}
	k := Default()
	if err := k.Apply([]byte(`{"revoke": ["ctrl+r", "alt+r", "f5"], "follow": ["ctrl+f"], "cancel": ["esc", "x"]}`)); err != nil {
		t.Fatal(err)
	}
	d := Default()
	if err := d.checkShadows(); err != nil {
		t.Errorf("the defaults clash: %v", err)
	}
}

// TestDialogKeysComeFromTheKeyMap: a keys.json can move confirm and cancel.
func TestDialogKeysComeFromTheKeyMap(t *testing.T) {
	k := Default()
	if err := k.Apply([]byte(`{"confirm": ["ctrl+y"], "cancel": ["ctrl+g"]}`)); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(press("ctrl+y"), k.Confirm) || key.Matches(press("y"), k.Confirm) {
		t.Error("confirm not moved to ctrl+y")
	}
	if k.Cancel.Help().Key != "ctrl+g" {
		t.Errorf("cancel's hint says %q", k.Cancel.Help().Key)
	}
}

// TestInputKeysAreTheirOwnContext: the keys that act while typing (submit,
// dismiss, the picker's up and down) may equal an action's key, and a
// keys.json moves them and their hint.
func TestInputKeysAreTheirOwnContext(t *testing.T) {
	k := Default()
	if err := k.Apply([]byte(`{"submit": ["tab"], "choicedown": ["ctrl+j"]}`)); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(press("tab"), k.Submit) || !key.Matches(press("tab"), k.SwitchPane) {
		t.Error("tab should submit an input and switch panes outside one")
	}
	if !key.Matches(press("ctrl+j"), k.ChoiceDown) || k.ChoiceDown.Help().Key != "ctrl+j" {
		t.Errorf("choicedown not moved: hint %q", k.ChoiceDown.Help().Key)
	}
}

// TestHalfPageKeysAsInLess: ctrl+u and ctrl+d move half a page and space
// pages down by default; the half-page actions have names an override
// file may use.
func TestHalfPageKeysAsInLess(t *testing.T) {
	k := Default()
	for _, c := range []struct {
		b   key.Binding
		msg tea.KeyMsg
	}{
		{k.HalfPageUp, tea.KeyMsg{Type: tea.KeyCtrlU}},
		{k.HalfPageDown, tea.KeyMsg{Type: tea.KeyCtrlD}},
		{k.PageDown, tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}},
	} {
		if !key.Matches(c.msg, c.b) {
			t.Errorf("%s does not %s", c.msg, c.b.Help().Desc)
		}
	}
	names := strings.Join(Actions(), " ")
	for _, want := range []string{"halfpageup", "halfpagedown"} {
		if !strings.Contains(names, want) {
			t.Errorf("no action %q in %s", want, names)
		}
	}
}

// TestAHugeNameGivesAShortError: a keys.json naming an action or a key of
// 100 kB is refused in one line that quotes the start of the name and its
// length, not the whole name.
func TestAHugeNameGivesAShortError(t *testing.T) {
	huge := strings.Repeat("x", 100_000)
	for name, body := range map[string]string{
		"action":          `{"` + huge + `": ["x"]}`,
		"key":             `{"revoke": ["` + huge + `"]}`,
		"action, no keys": `{"quit` + huge + `": []}`,
		"action twice":    `{"` + huge + `": ["x"], "` + strings.ToUpper(huge) + `": ["y"]}`,
		"not an object":   `"` + huge + `"`,
	} {
		t.Run(name, func(t *testing.T) {
			k := Default()
			err := k.Apply([]byte(body))
			if err == nil || strings.Contains(err.Error(), "\n") || len(err.Error()) > 1000 {
				t.Fatalf("want a short one-line error, got %d bytes: %.300v", len(fmt.Sprint(err)), err)
			}
		})
	}
}

// TestMisspeltActionNamesTheNearest: an unknown action in the key map file
// names the action meant, a swap of two neighbouring letters counting as
// one slip ("revkoe" is revoke), as the command line's "did you mean" does.
func TestMisspeltActionNamesTheNearest(t *testing.T) {
	for body, want := range map[string]string{
		`{"revkoe": ["x"]}`: `unknown action "revkoe": did you mean "revoke"?`,
		`{"qiut": ["x"]}`:   `unknown action "qiut": did you mean "quit"?`,
		`{"revok": ["x"]}`:  `unknown action "revok": did you mean "revoke"?`,
	} {
		k := Default()
		if err := k.Apply([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %s", body, err, want)
		}
	}
}
