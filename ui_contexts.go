package main

import (
	"context"
	"strings"
	"sync"

	"github.com/alecthomas/kong"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui"
)

// Switching context from inside the UI (X, :context NAME): the UI asks
// for a context by name, and main opens its store as a run with
// --context NAME would, the command line parsed again. A context is the
// whole deployment, so of the command line only what holds for the whole
// run stays: --read-only (a UI started with it stays read-only on every
// context), --audit-log and --utc. The UI lets go of the stores it leaves,
// and main closes the last one when the UI ends.

// uiStores are the stores the UI has open, by the session that opened
// each (its audit log with it).
type uiStores struct {
	p    process
	keep []string // the command line's run-wide flags, as flags
	mu   sync.Mutex
	open map[*store.Store]*session
}

func newUIStores(s *session) *uiStores {
	u := &uiStores{p: s.process, open: map[*store.Store]*session{}}
	if s.given["read-only"] && s.conn.ReadOnly {
		u.keep = append(u.keep, "--read-only")
	}
	if s.given["audit-log"] && s.conn.AuditLog != "" {
		u.keep = append(u.keep, "--audit-log="+s.conn.AuditLog)
	}
	if s.given["utc"] && s.conn.UTC {
		u.keep = append(u.keep, "--utc")
	}
	return u
}

// adopt counts s's store among the UI's (the first one, opened by Run).
func (u *uiStores) adopt(s *session) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.open[s.st] = s
}

// openContext opens the store of context name for a switch. Its mistakes
// are those of `chatlens --context NAME`; its warnings (a cache that does
// not answer, a config file others may read) come back as one line.
func (u *uiStores) openContext(ctx context.Context, name string) (ui.Switched, error) {
	var warn strings.Builder
	p := u.p
	p.stdout, p.stderr = &warn, &warn
	parser, choice, err := newParser(p)
	if err != nil {
		return ui.Switched{}, err
	}
	kctx, err := parser.Parse(append([]string{"--context", name}, u.keep...))
	switch {
	case choice.err != nil:
		return ui.Switched{}, choice.err
	case err != nil:
		return ui.Switched{}, parseError(parser, err)
	}
	choice.decide(kctx)
	if err := choice.enforce(); err != nil {
		return ui.Switched{}, err
	}
	for _, w := range choice.warnings {
		warn.WriteString("chatlens: " + w + "\n")
	}
	s := &session{process: p, conn: choice.conn}
	if err := s.open(ctx, writes); err != nil {
		s.close()
		return ui.Switched{}, err
	}
	u.adopt(s)
	return ui.Switched{Store: s.st, Warning: warningLine(warn.String()), Deployment: s.conn.MongoURI != "", TimeZone: s.zone()}, nil
}

// warningLine is what a store's opening said on stderr as one status line.
func warningLine(said string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(said), "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "chatlens: ")); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, " · ")
}

// release closes a store the UI left, and its audit log.
func (u *uiStores) release(st *store.Store) {
	u.mu.Lock()
	s := u.open[st]
	delete(u.open, st)
	u.mu.Unlock()
	if s != nil {
		s.close()
	}
}

// closeAll closes what the UI still holds when it ends.
func (u *uiStores) closeAll() {
	u.mu.Lock()
	left := u.open
	u.open = map[*store.Store]*session{}
	u.mu.Unlock()
	for _, s := range left {
		s.close()
	}
}

// contextChoices are the config file's contexts as the UI's picker shows
// them: what each sets, passwords masked (as `chatlens contexts`); none
// when there is no file or it does not read.
func contextChoices(parser *kong.Kong) []ui.ContextChoice {
	keys := contextKeys(parser.Model)
	cfg, err := loadConfig(configPath(), keys)
	if err != nil || cfg == nil {
		return nil
	}
	order := flagOrder(parser, keys)
	var out []ui.ContextChoice
	for _, name := range cfg.names {
		out = append(out, ui.ContextChoice{Name: name, About: strings.Join(cfg.contexts[name].settings(order), " ")})
	}
	return out
}
