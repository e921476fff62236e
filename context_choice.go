package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
)

// Which context a run uses, and how its values reach the flags: kong asks
// this resolver for every flag not given on the command line, so the
// command line wins over the context, and the context over the
// environment and the defaults.
//
// The context is --context (or CHATLENS_CONTEXT), else the file's
// current-context unless the command line or the environment names a
// store of its own (--mongo-uri, --data). A context is a whole deployment:
// the environment's CHATLENS_MONGO_URI, CHATLENS_REDIS and the like are not
// read under it, so a shell's variable never mixes another deployment's
// cache or server into it.

// noContext are the commands that open no store: a context is not read
// for them.
var noContext = []string{"help", "completion", "contexts"}

// contextChoice decides the context once per parse.
type contextChoice struct {
	conn     *connection // where the chosen context is recorded
	decided  bool
	given    map[string]bool // flags given on the command line
	err      error           // a usage error, for the commands that open a store
	warnings []string        // for stderr
}

func (c *contextChoice) Validate(*kong.Application) error { return nil }

// Resolve is the context's value of flag, "" for a connection flag the
// context does not set but the environment does, or nil: no value.
func (c *contextChoice) Resolve(kctx *kong.Context, _ *kong.Path, flag *kong.Flag) (any, error) {
	if flag.Group == nil || flag.Group.Key != "connection" || flag.Name == "context" {
		return nil, nil
	}
	c.decide(kctx)
	d := c.conn.deployment
	if d == nil {
		return nil, nil
	}
	// mongo-uri and data both say where the store is: one given on the
	// command line overrides the context's other one too.
	for _, pair := range [][2]string{{"mongo-uri", "data"}, {"data", "mongo-uri"}} {
		if flag.Name == pair[0] && c.given[pair[1]] {
			return "", nil
		}
	}
	if v, ok := d.values[flag.Name]; ok {
		return v, nil
	}
	if len(flag.Envs) > 0 && envSet(flag.Envs) {
		return flag.Default, nil // the context's, not the shell's
	}
	return nil, nil
}

// decide picks the context of the run. Its mistakes (an unknown name, a
// config file that does not read) are kept for dispatch, which reports
// them for the commands that open a store.
func (c *contextChoice) decide(kctx *kong.Context) {
	if c.decided {
		return
	}
	c.decided = true
	c.given = map[string]bool{}
	var contextFlag *kong.Flag
	for _, p := range kctx.Path {
		if p.Flag != nil && !p.Resolved {
			c.given[p.Flag.Name] = true
		}
	}
	for _, f := range kctx.Flags() {
		if f.Name == "context" {
			contextFlag = f
		}
	}
	cmd := commandName(kctx)
	if slices.Contains(noContext, cmd) || contextFlag == nil {
		return
	}
	name, _ := kctx.FlagValue(contextFlag).(string)
	if cmd == "bench" {
		if name != "" {
			c.err = usagef("bench: --context does not apply: bench measures in scratch stores of its own (--mongo-uri names a server for them)")
		}
		return
	}
	if name == "" && (c.given["mongo-uri"] || c.given["data"] || envSet([]string{"CHATLENS_MONGO_URI", "CHATLENS_DATA"})) {
		return // a store named otherwise: the default context steps aside, the file is not read
	}
	cfg, err := loadConfig(configPath(), contextKeys(kctx.Model))
	if err != nil {
		c.err = err
		return
	}
	if cfg != nil {
		c.warnings = cfg.warnings
	}
	from := ""
	if name == "" {
		if cfg == nil || cfg.current == "" {
			return
		}
		name, from = cfg.current, "current-context"
	}
	if cfg == nil {
		c.err = usagef("unknown context %q: there is no config file (%s)", name, configPath())
		return
	}
	d, err := cfg.lookup(name, from)
	if err != nil {
		c.err = err
		return
	}
	c.conn.deployment = d
	if ignored := c.ignoredEnv(kctx, d); len(ignored) > 0 {
		c.warnings = append(c.warnings, fmt.Sprintf("note: context %s is the deployment: %s not used", d.name, strings.Join(ignored, ", ")))
	}
}

// ignoredEnv are the environment's connection variables the context
// stands in for.
func (c *contextChoice) ignoredEnv(kctx *kong.Context, d *deployment) []string {
	var out []string
	for _, f := range kctx.Model.Flags {
		if f.Group == nil || f.Group.Key != "connection" || f.Name == "context" || c.given[f.Name] {
			continue
		}
		for _, env := range f.Envs {
			if os.Getenv(env) != "" {
				out = append(out, env)
			}
		}
	}
	return out
}

// enforce applies what no flag overrides: a read-only context stays
// read-only.
func (c *contextChoice) enforce() error {
	d := c.conn.deployment
	if d == nil || !d.readOnly || c.conn.ReadOnly {
		return nil
	}
	return usagef("context %s is read-only: --read-only=false does not lift it", d.name)
}

// envSet tells whether any of the variables is set to something.
func envSet(names []string) bool {
	for _, n := range names {
		if os.Getenv(n) != "" {
			return true
		}
	}
	return false
}
