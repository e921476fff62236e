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
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/alecthomas/kong"
	"go.yaml.in/yaml/v3"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store/bucket"
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

// maxConfigBytes bounds the config file: a thousand contexts are about
// 100 kB, and a file ten times that is a mistake (a log or a dump saved
// over it), refused before it is parsed.
const maxConfigBytes = 1 << 20

// loadConfig reads the config file at path; nil and no error when there
// is none. Every mistake is a usage error of one line naming the file.
func loadConfig(path string, keys map[string]contextKey) (*configFile, error) {
	if path == "" {
		return nil, nil
	}
	data, err := readConfig(path)
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

// readConfig reads the file at path, refusing one over maxConfigBytes
// (read no further than that, should it grow or be a pipe).
func readConfig(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	tooBig := func(size string) error {
		return fmt.Errorf("%s: %s: a config file is at most 1 MiB (%d bytes); is it the right file?", path, size, maxConfigBytes)
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > maxConfigBytes {
		return nil, tooBig(fmt.Sprintf("%d bytes", fi.Size()))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err == nil && len(data) > maxConfigBytes {
		return nil, tooBig(fmt.Sprintf("more than %d bytes", maxConfigBytes))
	}
	return data, err
}

// parseConfig checks the file's one YAML document: current-context: and
// contexts:, each context's keys (parseDeployment). It walks the parsed
// nodes itself, in one pass: the YAML decoder's own check for a key given
// twice compares every key of a mapping with every other, which took
// minutes on a file of 200,000 contexts.
func parseConfig(path string, data []byte, keys map[string]contextKey) (*configFile, error) {
	cfg := &configFile{path: path, contexts: map[string]*deployment{}}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return cfg, nil // an empty file
	} else if err != nil {
		return nil, yamlError(err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, fmt.Errorf("line %d: a second YAML document (after ---): the file holds one", more.Line)
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(err)
	}
	if err := refuseTags(&doc); err != nil {
		return nil, err
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return cfg, nil // comments only
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: want keys current-context and contexts", root.Line)
	}
	var contexts *yaml.Node
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if first, dup := seen[k.Value]; dup {
			return nil, fmt.Errorf("line %d: %s is given twice (line %d too)", k.Line, bucket.QuoteName(k.Value), first)
		}
		seen[k.Value] = k.Line
		switch k.Value {
		case "current-context":
			if v.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: current-context wants a context name", v.Line)
			}
			if v.Tag != "!!null" {
				cfg.current = v.Value
			}
		case "contexts":
			if v.Kind != yaml.MappingNode && (v.Kind != yaml.ScalarNode || v.Tag != "!!null") {
				return nil, fmt.Errorf("line %d: contexts wants names, each with its keys", v.Line)
			}
			contexts = v
		default:
			msg := fmt.Sprintf("line %d: unknown key %s", k.Line, bucket.QuoteName(k.Value))
			if near := keymap.Nearest(k.Value, []string{"current-context", "contexts"}); near != "" {
				return nil, fmt.Errorf("%s, did you mean %q?", msg, near)
			}
			return nil, errors.New(msg + " (the file holds current-context: and contexts:)")
		}
	}
	if contexts == nil {
		return cfg, nil
	}
	known := []string{keySecretEnv, keySecretCmd}
	for k := range keys {
		known = append(known, k)
	}
	sort.Strings(known)
	lines := map[string]int{}
	for i := 0; i+1 < len(contexts.Content); i += 2 {
		k, v := contexts.Content[i], contexts.Content[i+1]
		name := k.Value
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: a context name is one word", k.Line)
		}
		if first, dup := lines[name]; dup {
			return nil, fmt.Errorf("line %d: context %s is given twice (line %d too)", k.Line, bucket.QuoteName(name), first)
		}
		lines[name] = k.Line
		if err := contextName(name); err != nil {
			return nil, err
		}
		d, err := parseDeployment(filepath.Dir(path), name, v, keys, known)
		if err != nil {
			return nil, fmt.Errorf("context %s: %w", name, err)
		}
		cfg.contexts[name] = d
		cfg.names = append(cfg.names, name)
	}
	sort.Strings(cfg.names)
	return cfg, nil
}

// refuseTags refuses an explicit tag anywhere in the file (!!binary,
// !!str, !custom): every value of the file is a plain word, number or
// true/false, and a tag would change what it is read as without a word.
func refuseTags(n *yaml.Node) error {
	if n.Style&yaml.TaggedStyle != 0 {
		return fmt.Errorf("line %d: the tag %s is not taken: write the value without it", n.Line, bucket.QuoteName(n.Tag))
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i < len(n.Content); i += 2 {
			if n.Content[i].Tag == "!!merge" {
				return fmt.Errorf("line %d: merge keys (<<) are not taken: write each key", n.Content[i].Line)
			}
		}
	}
	for _, c := range n.Content {
		if err := refuseTags(c); err != nil {
			return err
		}
	}
	return nil
}

// yamlError is the decoder's error in one line.
func yamlError(err error) error {
	return errors.New(strings.TrimPrefix(bucket.EscapeUntrusted(oneLine(err.Error()), 2*bucket.MaxQuotedName), "yaml: "))
}

// contextName refuses a name that would not read as one word in the
// status bar, an audit line or a completion.
func contextName(name string) error {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) {
		return fmt.Errorf("context name %s: a name is one word, without spaces or control characters", bucket.QuoteName(name))
	}
	if len(name) > bucket.MaxQuotedName {
		return fmt.Errorf("context name %s: a name is at most %d bytes", bucket.QuoteName(name), bucket.MaxQuotedName)
	}
	return nil
}

// parseDeployment checks one context's keys and values: each key a
// connection flag (or where the secret comes from), each value of the
// flag's type.
func parseDeployment(dir, name string, node *yaml.Node, keys map[string]contextKey, known []string) (*deployment, error) {
	d := &deployment{name: name, values: map[string]string{}}
	if node.Kind == 0 || node.Tag == "!!null" {
		return d, nil // a context with no keys: the defaults
	}
	if node.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: want keys such as mongo-uri and data", node.Line)
	}
	seen := map[string]bool{}
	secrets := 0
	for i := 0; i+1 < len(node.Content); i += 2 {
		k, v := node.Content[i], node.Content[i+1]
		key := k.Value
		ck, isFlag := keys[key]
		if !isFlag && key != keySecretEnv && key != keySecretCmd {
			msg := fmt.Sprintf("line %d: unknown key %s", k.Line, bucket.QuoteName(key))
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
				return nil, fmt.Errorf("line %d: %s: %s is not a duration such as 10s", v.Line, key, bucket.QuoteName(value))
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
	msg := fmt.Sprintf("unknown context %s", bucket.QuoteName(name))
	if from != "" {
		msg = fmt.Sprintf("%s names context %s, which %s does not have", from, bucket.QuoteName(name), cfg.path)
	}
	if near := keymap.Nearest(name, cfg.names); near != "" {
		msg += fmt.Sprintf(", did you mean %q?", near)
	}
	if len(cfg.names) == 0 {
		return nil, usagef("%s (%s names none)", msg, cfg.path)
	}
	const listed = 20 // a file of thousands of contexts is not listed whole
	if len(cfg.names) > listed {
		return nil, usagef("%s (%s has %s and %d more: chatlens contexts lists them)", msg, cfg.path, strings.Join(cfg.names[:listed], ", "), len(cfg.names)-listed)
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
