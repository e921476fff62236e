package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/alecthomas/kong"
	"go.yaml.in/yaml/v3"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/openimapi"
	"github.com/chatlens/chatlens/store/rediscache"
)

// The config file names deployments (contexts), as kubectl's and k9s's do:
//
//	current-context: staging
//	contexts:
//	  prod-eu:
//	    mongo-uri: mongodb+srv://support@cluster0.example.net/
//	    read-only: true
//	    openim-secret-env: OPENIM_SECRET_PROD_EU
//
// A context's keys are the long names of the connection flags, plus where
// the OpenIM secret comes from besides the file itself.

// Where a context may keep the OpenIM secret other than in the file.
const (
	keySecretEnv = "openim-secret-env" // the name of an environment variable holding it
	keySecretCmd = "openim-secret-cmd" // a shell command that prints it
)

// configFile is the config file as read and checked.
type configFile struct {
	path     string
	current  string
	contexts map[string]*deployment
	names    []string // sorted
	warnings []string // for stderr: a secret in a file others can read
}

// deployment is one context: the flag values it sets, by long name.
type deployment struct {
	name      string
	values    map[string]string
	readOnly  bool   // read-only: true, which no flag lifts
	secretEnv string // openim-secret-env
	secretCmd string // openim-secret-cmd
}

// configPath is $XDG_CONFIG_HOME/chatlens/config.yaml, else the user's
// config directory's (~/.config on Linux).
func configPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		d, err := os.UserConfigDir()
		if err != nil {
			return ""
		}
		dir = d
	}
	return filepath.Join(dir, "chatlens", "config.yaml")
}

// contextKey is a key a context may set: a connection flag.
type contextKey struct {
	flag *kong.Flag
	path bool // a file: ~ and relative paths are expanded
}

// contextKeys are the connection flags of the command line, by long name:
// a flag added there is a key of the config file at once.
func contextKeys(app *kong.Application) map[string]contextKey {
	keys := map[string]contextKey{}
	for _, f := range app.Flags {
		if f.Group != nil && f.Group.Key == "connection" && f.Name != "context" {
			keys[f.Name] = contextKey{flag: f, path: f.Tag.Get("complete") == "file"}
		}
	}
	return keys
}

// loadConfig reads the config file at path; nil and no error when there
// is none. Every mistake is a usage error of one line naming the file.
func loadConfig(path string, keys map[string]contextKey) (*configFile, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, usagef("config: %v", err)
	}
	cfg, err := parseConfig(path, data, keys)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 && runtime.GOOS != "windows" {
		if what := cfg.secretHeld(); what != "" {
			cfg.warnings = append(cfg.warnings, fmt.Sprintf("warning: %s holds a secret (%s) and others than its owner may read it (mode %04o): chmod 600 %s",
				path, what, fi.Mode().Perm(), path))
		}
	}
	return cfg, nil
}

// rawConfig is the file's shape; the contexts stay nodes to be checked
// key by key.
type rawConfig struct {
	CurrentContext string               `yaml:"current-context"`
	Contexts       map[string]yaml.Node `yaml:"contexts"`
}

func parseConfig(path string, data []byte, keys map[string]contextKey) (*configFile, error) {
	var raw rawConfig
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil && !errors.Is(err, io.EOF) { // (io.EOF: an empty file)
		return nil, yamlError(err)
	}
	cfg := &configFile{path: path, current: raw.CurrentContext, contexts: map[string]*deployment{}}
	for name, node := range raw.Contexts {
		if err := contextName(name); err != nil {
			return nil, err
		}
		d, err := parseDeployment(filepath.Dir(path), name, &node, keys)
		if err != nil {
			return nil, fmt.Errorf("context %s: %w", name, err)
		}
		cfg.contexts[name] = d
		cfg.names = append(cfg.names, name)
	}
	sort.Strings(cfg.names)
	return cfg, nil
}

// unknownField is the decoder's word for a key the file may not have.
var unknownField = regexp.MustCompile(`line (\d+): field (\S+) not found`)

// yamlError is the decoder's error in one line, with the nearest key to
// one it does not know.
func yamlError(err error) error {
	msg := oneLine(err.Error())
	if m := unknownField.FindStringSubmatch(msg); m != nil {
		msg = fmt.Sprintf("line %s: unknown key %q", m[1], m[2])
		if near := keymap.Nearest(m[2], []string{"current-context", "contexts"}); near != "" {
			return fmt.Errorf("%s, did you mean %q?", msg, near)
		}
		return errors.New(msg + " (the file holds current-context: and contexts:)")
	}
	return errors.New(strings.TrimPrefix(msg, "yaml: "))
}

// contextName refuses a name that would not read as one word in the
// status bar, an audit line or a completion.
func contextName(name string) error {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) {
		return fmt.Errorf("context name %q: a name is one word, without spaces or control characters", name)
	}
	return nil
}

// parseDeployment checks one context's keys and values: each key a
// connection flag (or where the secret comes from), each value of the
// flag's type.
func parseDeployment(dir, name string, node *yaml.Node, keys map[string]contextKey) (*deployment, error) {
	d := &deployment{name: name, values: map[string]string{}}
	if node.Kind == 0 || node.Tag == "!!null" {
		return d, nil // a context with no keys: the defaults
	}
	if node.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: want keys such as mongo-uri and data", node.Line)
	}
	known := []string{keySecretEnv, keySecretCmd}
	for k := range keys {
		known = append(known, k)
	}
	sort.Strings(known)
	seen := map[string]bool{}
	secrets := 0
	for i := 0; i+1 < len(node.Content); i += 2 {
		k, v := node.Content[i], node.Content[i+1]
		key := k.Value
		ck, isFlag := keys[key]
		if !isFlag && key != keySecretEnv && key != keySecretCmd {
			msg := fmt.Sprintf("line %d: unknown key %q", k.Line, key)
			if near := keymap.Nearest(key, known); near != "" {
				return nil, fmt.Errorf("%s, did you mean %q?", msg, near)
			}
			return nil, fmt.Errorf("%s (a context takes the long names of the connection flags: %s)", msg, strings.Join(known, ", "))
		}
		if seen[key] {
			return nil, fmt.Errorf("line %d: %s is given twice", k.Line, key)
		}
		seen[key] = true
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || v.Value == "" {
			return nil, fmt.Errorf("line %d: %s wants a value", v.Line, key)
		}
		value := v.Value
		switch {
		case key == keySecretEnv:
			d.secretEnv, secrets = value, secrets+1
			continue
		case key == keySecretCmd:
			d.secretCmd, secrets = value, secrets+1
			continue
		case key == "openim-secret":
			secrets++
		case ck.flag.IsBool():
			var b bool
			if v.Tag != "!!bool" || v.Decode(&b) != nil {
				return nil, fmt.Errorf("line %d: %s wants true or false", v.Line, key)
			}
			value = strconv.FormatBool(b)
			d.readOnly = d.readOnly || key == "read-only" && b
		case ck.flag.Target.Type() == reflect.TypeFor[time.Duration]():
			if _, err := time.ParseDuration(value); err != nil {
				return nil, fmt.Errorf("line %d: %s: %q is not a duration such as 10s", v.Line, key, value)
			}
		case ck.path:
			value = expandPath(dir, value)
		}
		d.values[key] = value
	}
	if secrets > 1 {
		return nil, errors.New("one of openim-secret, openim-secret-env and openim-secret-cmd, not several")
	}
	return d, nil
}

// expandPath makes a file of the config file absolute: ~/ is the home
// directory, a relative path is relative to the config file's directory.
func expandPath(dir, p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// secretHeld names the first secret the file itself holds, without its
// value: an OpenIM secret, or a password in a URI.
func (cfg *configFile) secretHeld() string {
	for _, name := range cfg.names {
		d := cfg.contexts[name]
		if d.values["openim-secret"] != "" {
			return "openim-secret of " + name
		}
		for _, k := range []string{"mongo-uri", "redis", "openim-api"} {
			if v := d.values[k]; v != "" && maskValue(k, v) != v {
				return "the password in " + k + " of " + name
			}
		}
	}
	return ""
}

// maskValue is a context's value as it may be shown: passwords and secrets
// masked.
func maskValue(key, v string) string {
	switch key {
	case "mongo-uri":
		return mongostore.MaskURI(v)
	case "redis":
		return rediscache.MaskAddr(v)
	case "openim-api":
		return openimapi.MaskURL(v)
	case "openim-secret":
		return "****"
	}
	return v
}

// lookup is the context name, or a usage error naming the ones there are.
func (cfg *configFile) lookup(name, from string) (*deployment, error) {
	if d, ok := cfg.contexts[name]; ok {
		return d, nil
	}
	msg := fmt.Sprintf("unknown context %q", name)
	if from != "" {
		msg = fmt.Sprintf("%s names context %q, which %s does not have", from, name, cfg.path)
	}
	if near := keymap.Nearest(name, cfg.names); near != "" {
		msg += fmt.Sprintf(", did you mean %q?", near)
	}
	if len(cfg.names) == 0 {
		return nil, usagef("%s (%s names none)", msg, cfg.path)
	}
	return nil, usagef("%s (%s has %s)", msg, cfg.path, strings.Join(cfg.names, ", "))
}

// hasSecretSource tells whether the OpenIM secret comes from outside the
// file, asked for only when a write needs it.
func (d *deployment) hasSecretSource() bool {
	return d != nil && (d.secretEnv != "" || d.secretCmd != "")
}

// settings are the context's keys and values as `chatlens contexts` shows
// them: passwords and secrets masked, in the command line's order.
func (d *deployment) settings(order []string) []string {
	var out []string
	for _, k := range order {
		if v, ok := d.values[k]; ok {
			out = append(out, k+"="+maskValue(k, v))
		}
	}
	if d.secretEnv != "" {
		out = append(out, keySecretEnv+"="+d.secretEnv)
	}
	if d.secretCmd != "" {
		out = append(out, keySecretCmd+"="+strconv.Quote(secretProgram(d.secretCmd))) // (its arguments may hold the secret)
	}
	return out
}
