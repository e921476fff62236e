package keymap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store/bucket"
)

// actions maps the names used in the override file to the bindings.
func (k *KeyMap) actions() map[string]*key.Binding {
	return map[string]*key.Binding{
		"up": &k.Up, "down": &k.Down, "pageup": &k.PageUp, "pagedown": &k.PageDown,
		"halfpageup": &k.HalfPageUp, "halfpagedown": &k.HalfPageDown,
		"top": &k.Top, "bottom": &k.Bottom, "switchpane": &k.SwitchPane, "open": &k.Open,
		"back": &k.Back, "viewas": &k.ViewAs, "cycleviewer": &k.CycleViewer, "viewasany": &k.ViewAsAny,
		"compare": &k.Compare, "revoke": &k.Revoke, "delete": &k.Delete, "markread": &k.MarkRead,
		"inspect": &k.Inspect, "search": &k.Search, "nexthit": &k.NextHit, "prevhit": &k.PrevHit,
		"jump": &k.Jump, "now": &k.Now, "copy": &k.Copy, "boundaries": &k.Boundaries, "retry": &k.Retry,
		"help": &k.Help, "quit": &k.Quit,
		"nextmessage": &k.NextMessage, "prevmessage": &k.PrevMessage, "findbyid": &k.FindByID, "findall": &k.FindAll,
		"transcript": &k.Transcript, "context": &k.Context,
		"nextdiff": &k.NextDiff, "prevdiff": &k.PrevDiff, "diffonly": &k.DiffOnly,
		"confirm": &k.Confirm, "cancel": &k.Cancel, "messagelog": &k.MessageLog, "follow": &k.Follow,
		"submit": &k.Submit, "dismiss": &k.Dismiss, "choiceup": &k.ChoiceUp, "choicedown": &k.ChoiceDown,
	}
}

// Actions lists the action names an override file may use.
func Actions() []string {
	k := Default()
	var out []string
	for n := range k.actions() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// DefaultPath is where Load looks when no file is named:
// <user config dir>/chatlens/keys.json.
func DefaultPath() string { return ConfigPath("keys.json") }

// ConfigPath is file in chatlens's folder of the user's config dir, ""
// when there is none.
func ConfigPath(file string) string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "chatlens", file)
}

// ReadConfig reads the file at path, or at def when path is "": a named
// file that is missing is an error, a missing default is none (nil data).
// used is the path read.
func ReadConfig(path, def string) (data []byte, used string, err error) {
	named := path != ""
	if !named {
		path = def
	}
	if path == "" {
		return nil, "", nil
	}
	data, err = os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !named {
		return nil, path, nil
	}
	return data, path, err
}

// Load returns the defaults with the overrides of the JSON file at path
// applied: {"revoke": ["R", "ctrl+r"], "quit": ["ctrl+q"]}. A missing file
// at the default path is not an error; a named file that is missing is.
// Every error is one line that starts with the file's path.
func Load(path string) (KeyMap, error) {
	k := Default()
	data, path, err := ReadConfig(path, DefaultPath())
	if err != nil {
		return k, fmt.Errorf("key map: %w", err)
	}
	if data == nil {
		return k, nil
	}
	if err := k.Apply(data); err != nil {
		return k, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// Apply overrides bindings from JSON (action name -> keys) and checks the
// result: every key is one Bubble Tea knows, no key does two things, no
// action is left without a key. The help text follows the new keys so the
// footer never lies.
func (k *KeyMap) Apply(data []byte) error {
	over, err := parseOverrides(data)
	if err != nil {
		return err
	}
	acts := k.actions()
	names := make([]string, 0, len(over))
	for name := range over {
		names = append(names, name)
	}
	sort.Strings(names) // the same file gives the same first error
	for _, name := range names {
		keys := over[name]
		b, ok := acts[strings.ToLower(name)]
		if !ok {
			if near := nearestAction(name); near != "" {
				return fmt.Errorf("key map: unknown action %s: did you mean %q?", bucket.QuoteName(name), near)
			}
			return fmt.Errorf("key map: unknown action %s (known: %s)", bucket.QuoteName(name), strings.Join(Actions(), ", "))
		}
		if len(keys) == 0 {
			return fmt.Errorf("key map: action %s has no keys", bucket.QuoteName(name))
		}
		for _, kn := range keys {
			if !ValidKey(kn) {
				return fmt.Errorf("key map: action %s: unknown key name %s (a single character, or a name such as enter, esc, pgdown, ctrl+r, alt+x, f5)", bucket.QuoteName(name), bucket.QuoteName(kn))
			}
		}
		b.SetKeys(keys...)
		b.SetHelp(strings.Join(keys, "/"), b.Help().Desc)
	}
	return k.checkShadows()
}

// parseOverrides reads the file's object of action -> [keys], strictly:
// a leading BOM (Windows editors write one) is skipped, and an action
// named twice (JSON keeps the last silently), a null where the object or
// a key list goes, or a null key are refused.
func parseOverrides(data []byte) (map[string][]string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	notObject := func(why string) error {
		return fmt.Errorf("key map: not a JSON object of action -> [keys]: %s", bucket.EscapeUntrusted(oneLine(why), 2*bucket.MaxQuotedName))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil {
		return nil, notObject(err.Error())
	} else if tok != json.Delim('{') {
		return nil, notObject(fmt.Sprintf("starts with %v", tok))
	}
	over := map[string][]string{}
	seen := map[string]string{} // lower-case action -> the name as written
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, notObject(err.Error())
		}
		name := tok.(string) // inside an object, a token before a value is its key
		if first, dup := seen[strings.ToLower(name)]; dup {
			return nil, fmt.Errorf("key map: action %s is given twice (as %s too): one list of keys an action", bucket.QuoteName(name), bucket.QuoteName(first))
		}
		seen[strings.ToLower(name)] = name
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, notObject(err.Error())
		}
		var keys []*string
		if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
			return nil, fmt.Errorf("key map: action %s: want a list of key names, got %s", bucket.QuoteName(name), bucket.EscapeUntrusted(oneLine(string(raw)), bucket.MaxQuotedName))
		}
		for _, kn := range keys {
			if kn == nil {
				return nil, fmt.Errorf("key map: action %s: null in its list of keys", bucket.QuoteName(name))
			}
			over[name] = append(over[name], *kn)
		}
		if len(keys) == 0 {
			over[name] = []string{}
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, notObject(err.Error())
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, notObject("more after the object")
	}
	return over, nil
}

// checkShadows refuses a key bound to two actions of the same context: the
// first one matched would hide the other for good. Dialog answers and input
// keys are contexts of their own (y confirms in a dialog and copies outside
// one; enter submits an input and opens a conversation outside one).
func (k *KeyMap) checkShadows() error {
	acts := k.actions()
	owner := map[string]string{}
	for _, name := range Actions() {
		for _, kn := range acts[name].Keys() {
			slot := kn
			if ctx := contexts[name]; ctx != "" {
				slot = ctx + " " + kn
			}
			if other, taken := owner[slot]; taken {
				return fmt.Errorf("key map: key %q is bound to both %s and %s; one would never run", kn, other, name)
			}
			owner[slot] = name
		}
	}
	return nil
}

// ValidKey reports whether name is a key Bubble Tea can deliver: one
// printable character, a named key (enter, pgdown, ctrl+r, f5), either
// with an alt+ prefix.
func ValidKey(name string) bool {
	name = strings.TrimPrefix(name, "alt+")
	if r := []rune(name); len(r) == 1 {
		return unicode.IsPrint(r[0])
	}
	return keyNames()[name]
}

// keyNames are the names Bubble Tea v1 gives its key types (KeyType.String).
var keyNames = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for t := -300; t <= 300; t++ {
		if n := tea.KeyType(t).String(); n != "" && n != "runes" {
			out[n] = true
		}
	}
	return out
})

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
