// Package ui is the Bubble Tea program of chatlens: a conversation list, a
// timeline rendered through projection for a chosen viewer, and the dialogs
// around them. Every read and write goes through *store.Store, always inside
// a tea.Cmd, so the screen never waits on I/O. Each such command carries a
// request number and its reply is taken only by whoever still waits for
// that number: the rule is written once, at reqID (commands.go).
//
// The screen is made of components (component.go), each with its Update,
// View, SetSize and key help: the conversation list (convlist.go), the
// timeline (timeline*.go) and its compare view (compareview.go), the viewer
// picker (picker.go), the confirm dialog (confirm.go), the inspector
// (inspector.go), the help (helpview.go), the message log (msglog.go) and
// the bottom input (input.go). The root model (model.go, keys.go) routes
// to them and does what reaches beyond one: opening a conversation or a
// dialog, writing, switching the viewer. Every key they answer to is a
// binding of keymap.KeyMap, so keys.json reaches all of them.
package ui

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/themes"
)

// Options configure the UI.
type Options struct {
	As         string // starting viewer; "" picks the first user found
	AsWhy      string // why As was picked for the user, said on the first screen; "" when given
	Theme      string // "" detects dark or light before the program starts
	Mouse      bool   // mouse wheel scrolling; off by default
	ReadOnly   bool   // hide and refuse revoke, delete and mark read
	KeymapFile string // "" uses keymap.DefaultPath() when that file exists
	Operator   string // who is at the keyboard (shown in confirm dialogs)
	// Deployment: the store is a MongoDB deployment devices sync from, so
	// confirm dialogs say which notification chatlens does not send.
	Deployment bool

	// Admin: the operator's writes act as an app admin (OpenIM's IM admin,
	// as --admin on the write commands): any message may be revoked, the
	// record carries role 0, and the audit log says so.
	Admin bool

	// TimeZone displays send times; nil means the local zone.
	TimeZone *time.Location
	// Now is the clock that tells which year is the current one (times of
	// other years show theirs); nil means time.Now.
	Now func() time.Time
	// Clipboard receives the OSC52 sequence of y; nil means standard output.
	Clipboard io.Writer
	// Version is chatlens's, named in transcripts; TranscriptDir is where T
	// writes them ("": the current directory).
	Version, TranscriptDir string

	// Connect, when set and Run is given no store, opens the store after
	// the first frame; ConnectingTo names what it connects to meanwhile.
	Connect      Connect
	ConnectingTo string
}

// Run opens the terminal UI and returns when the user quits or ctx ends.
func Run(ctx context.Context, st *store.Store, opts Options) error {
	// The background must be asked before Bubble Tea owns the terminal.
	theme, err := themes.Start(opts.Theme, lipgloss.HasDarkBackground)
	if err != nil {
		return err
	}
	keys, err := keymap.Load(opts.KeymapFile)
	if err != nil {
		return err
	}
	m := newModel(ctx, st, opts, theme, keys)
	popts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(ctx)}
	if opts.Mouse {
		popts = append(popts, tea.WithMouseCellMotion())
	}
	_, err = tea.NewProgram(m, popts...).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // interrupted from outside: not a failure of the UI
	}
	if err == nil {
		err = m.conn.err // the store never answered
	}
	return err
}

// common is what every part of the UI shares: the store, the look, the keys.
type common struct {
	ctx           context.Context
	st            *store.Store
	theme         themes.Theme
	keys          keymap.KeyMap
	readOnly      bool
	deployment    bool
	admin         bool // writes act as an app admin (Options.Admin)
	operator      string
	loc           *time.Location
	now           func() time.Time
	clip          io.Writer
	tmux          func(stdin string, args ...string) (string, error) // runs tmux (y inside tmux)
	version       string                                             // chatlens's, for transcripts
	transcriptDir string
	lastReq       reqID // the last request number handed out (newReq)
}

// newReq is a request number no request has had (see reqID). One counter
// for the whole program, so a reopened conversation, a new viewer or a new
// search never reuses a number. Only Update calls it, so it needs no lock.
func (e *common) newReq() reqID {
	e.lastReq++
	return e.lastReq
}

func newCommon(ctx context.Context, st *store.Store, opts Options, theme themes.Theme, keys keymap.KeyMap) *common {
	e := &common{ctx: ctx, theme: theme, keys: keys, operator: opts.Operator, deployment: opts.Deployment, admin: opts.Admin,
		readOnly: opts.ReadOnly, loc: opts.TimeZone, now: opts.Now, clip: opts.Clipboard,
		version: opts.Version, transcriptDir: opts.TranscriptDir}
	if e.loc == nil {
		e.loc = time.Local
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.clip == nil {
		e.clip = os.Stdout
	}
	e.tmux = runTmux
	if st != nil {
		e.useStore(st)
	} else if e.readOnly {
		e.keys = e.keys.WithoutWrites()
	}
	return e
}

// useStore is the store every command uses from now on; a read-only store
// turns the write keys off.
func (e *common) useStore(st *store.Store) {
	e.st = st
	e.readOnly = e.readOnly || st.ReadOnly()
	if e.readOnly {
		e.keys = e.keys.WithoutWrites()
	}
}
