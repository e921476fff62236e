// Package ui is the Bubble Tea program of chatlens: a conversation list, a
// timeline rendered through projection for a chosen viewer, and the dialogs
// around them. Every read and write goes through *store.Store, always inside
// a tea.Cmd, so the screen never waits on I/O. Each such command carries a
// request number and its reply is taken only by whoever still waits for
// that number: the rule is written once, at common.ReqID.
//
// The screen is made of components (common.Component), each with its
// Update, View, SetSize and key help: two pages, the conversation list
// (pages/list) and the open conversation's timeline (pages/timeline), and
// the parts under components/: the viewer picker, the confirm dialog, the
// inspector, the help and the message log (both scroll boxes), the copy
// choice and the bottom input. This root model (model.go, keys.go,
// view.go) routes keys and replies to them, lays them out, and does what
// reaches beyond one: opening a conversation or a dialog, writing. The
// jobs that span both pages hold their own state in parts of the root:
// finding a message by ID (finder), switching the viewer (viewerSwitch)
// or the deployment (contextSwitcher), the bars below the panes (bars),
// the connection before the store answers. Every key they answer to is a
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

	"github.com/chatlens/chatlens/ui/common"

	"github.com/chatlens/chatlens/ui/components/copychoice"
	"github.com/chatlens/chatlens/ui/components/picker"
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

	// Contexts are the named deployments of the config file ConfigPath
	// (none: no file), offered by X and :context NAME; Switch opens one,
	// and Release lets go of a store the UI switched away from (nil:
	// Store.Close). The UI never builds a store itself.
	Contexts   []ContextChoice
	ConfigPath string
	Switch     Switch
	Release    func(*store.Store)
}

// ContextChoice is a context of the config file as X offers it: its name
// and what it sets, passwords masked.
type ContextChoice = picker.Context

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

func newCommon(ctx context.Context, st *store.Store, opts Options, theme themes.Theme, keys keymap.KeyMap) *common.Common {
	e := &common.Common{Ctx: ctx, Theme: theme, Keys: keys, Operator: opts.Operator, Deployment: opts.Deployment, Admin: opts.Admin,
		ReadOnly: opts.ReadOnly, Loc: opts.TimeZone, Now: opts.Now, Clip: opts.Clipboard,
		Version: opts.Version, TranscriptDir: opts.TranscriptDir}
	if e.Loc == nil {
		e.Loc = time.Local
	}
	if e.Now == nil {
		e.Now = time.Now
	}
	if e.Clip == nil {
		e.Clip = os.Stdout
	}
	e.Tmux = copychoice.RunTmux
	e.Tick = tea.Tick
	if st != nil {
		e.UseStore(st)
	} else if e.ReadOnly {
		e.Keys = e.Keys.WithoutWrites()
	}
	return e
}
