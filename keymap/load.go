package keymap

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// actions maps the names used in the override file to the bindings.
func (k *KeyMap) actions() map[string]*key.Binding {
	return map[string]*key.Binding{
		"up": &k.Up, "down": &k.Down, "pageup": &k.PageUp, "pagedown": &k.PageDown,
		"top": &k.Top, "bottom": &k.Bottom, "switchpane": &k.SwitchPane, "open": &k.Open,
		"back": &k.Back, "viewas": &k.ViewAs, "cycleviewer": &k.CycleViewer, "viewasany": &k.ViewAsAny,
		"compare": &k.Compare, "revoke": &k.Revoke, "delete": &k.Delete, "markread": &k.MarkRead,
		"inspect": &k.Inspect, "search": &k.Search, "nexthit": &k.NextHit, "prevhit": &k.PrevHit,
		"jump": &k.Jump, "copy": &k.Copy, "boundaries": &k.Boundaries, "retry": &k.Retry,
		"help": &k.Help, "quit": &k.Quit,
		"nextdiff": &k.NextDiff, "prevdiff": &k.PrevDiff, "diffonly": &k.DiffOnly,
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
func DefaultPath() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "chatlens", "keys.json")
}

// Load returns the defaults with the overrides of the JSON file at path
// applied: {"revoke": ["R", "ctrl+r"], "quit": ["ctrl+q"]}. A missing file
// at the default path is not an error; a named file that is missing is.
func Load(path string) (KeyMap, error) {
	named := path != ""
	if !named {
		path = DefaultPath()
	}
	k := Default()
	if path == "" {
		return k, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !named {
		return k, nil
	}
	if err != nil {
		return k, fmt.Errorf("key map: %w", err)
	}
	return k, k.Apply(data)
}

// Apply overrides bindings from JSON (action name -> keys). The help text
// follows the new keys so the footer never lies.
func (k *KeyMap) Apply(data []byte) error {
	var over map[string][]string
	if err := json.Unmarshal(data, &over); err != nil {
		return fmt.Errorf("key map: not a JSON object of action -> [keys]: %w", err)
	}
	acts := k.actions()
	for name, keys := range over {
		b, ok := acts[strings.ToLower(name)]
		if !ok {
			return fmt.Errorf("key map: unknown action %q (known: %s)", name, strings.Join(Actions(), ", "))
		}
		if len(keys) == 0 {
			return fmt.Errorf("key map: action %q has no keys", name)
		}
		b.SetKeys(keys...)
		b.SetHelp(strings.Join(keys, "/"), b.Help().Desc)
	}
	return nil
}
