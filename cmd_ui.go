package main

import (
	"context"
	"os"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui"
)

// uiCmd is the terminal UI, what chatlens runs with no command. Its flags
// come before any command word: `chatlens --as alice`.
type uiCmd struct {
	As    string `name:"as" placeholder:"USER" complete:"users" help:"The user whose view the UI starts with."`
	Theme string `name:"theme" placeholder:"NAME" complete:"themes" help:"UI theme: ${themes} (none: no colour; detected when not given)."`
	Mouse bool   `name:"mouse" help:"Let the UI use the mouse."`
	Admin bool   `name:"admin" help:"The UI's writes act as an app admin (any message may be revoked, role 0, audited as admin)."`
}

func (uiCmd) Help() string {
	return `The UI opens the embedded store (a demo store on first run) or the deployment of --mongo-uri.
It may revoke, delete and mark read, so it opens the audit log like any command that writes.

Examples:

    chatlens
    chatlens --as alice --theme light --mouse
    chatlens --mongo-uri 'mongodb://user:pass@host:27017' --redis host:6379 --as 10001 --read-only`
}

// Validate refuses an unknown theme, a bad theme.json and a bad keys.json
// before the store is opened or created.
func (c *uiCmd) Validate() error {
	if c.Theme != "" {
		if _, err := themes.Get(c.Theme); err != nil {
			return err
		}
	}
	if _, err := themes.LoadFile(""); err != nil {
		return err // it names the theme.json it read
	}
	_, err := keymap.Load("") // its error names the keys.json it read
	return err
}

// Run opens the terminal UI. It opens the audit log like any command that
// writes, since the operator may revoke, delete or mark read from it.
func (c *uiCmd) Run(ctx context.Context, s *session, parser *kong.Kong) error {
	if err := needTerminal(os.Stdin); err != nil {
		return err
	}
	conn := s.conn
	opts := ui.Options{As: c.As, Theme: c.Theme, Mouse: c.Mouse, ReadOnly: conn.ReadOnly, Operator: operator(),
		Deployment: conn.MongoURI != "", TimeZone: s.zone(), Admin: c.Admin, Version: versionLine()}
	// X and :context NAME switch to another context of the config file;
	// the UI lets go of the stores it leaves, the last is closed here.
	stores := newUIStores(s)
	defer stores.closeAll()
	opts.Contexts, opts.ConfigPath = contextChoices(parser), configPath()
	opts.Switch, opts.Release = stores.openContext, stores.release
	if conn.MongoURI != "" {
		// A server can be slow to answer: the UI draws first and says so.
		opts.ConnectingTo = mongostore.Describe(conn.MongoURI, conn.DB)
		if name := conn.contextName(); name != "" {
			opts.ConnectingTo += " (context " + name + ")"
		}
		opts.Connect = func(ctx context.Context) (*store.Store, string, error) {
			var warn strings.Builder // the screen is the UI's now: warnings go to its status line
			stderr := s.stderr
			s.stderr = &warn
			defer func() { s.stderr = stderr }()
			if err := s.open(ctx, writes); err != nil {
				s.close()
				return nil, "", err
			}
			stores.adopt(s)
			return s.st, strings.TrimSpace(strings.TrimPrefix(warn.String(), "chatlens: ")), nil
		}
		return ui.Run(ctx, nil, opts)
	}
	if err := s.open(ctx, writes); err != nil {
		s.close()
		return err
	}
	stores.adopt(s)
	if opts.As == "" {
		// A demo store starts where the README's tour does; a store that
		// cannot say so starts as the UI finds a viewer.
		if v, _ := demo.TourViewerOf(ctx, s.st.Backend()); v != "" {
			opts.As, opts.AsWhy = v, "the README's tour of the demo starts with her"
		}
	}
	return ui.Run(ctx, s.st, opts)
}
