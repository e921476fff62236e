// Package common is what every part of the UI shares: the environment
// (the store, the look, the keys, the clock, request numbers), the
// component contract, and the helpers that measure and fit text in cells.
package common

import (
	"context"
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/themes"
)

// Common is what every part of the UI shares: the store, the look, the keys.
type Common struct {
	Ctx        context.Context
	Store      *store.Store
	Theme      themes.Theme
	Keys       keymap.KeyMap
	ReadOnly   bool
	Deployment bool // confirm dialogs say which notification chatlens does not send
	Admin      bool // writes act as an app admin
	Operator   string
	Loc        *time.Location
	Now        func() time.Time
	// Tick is tea.Tick, follow mode's timer; tests tick by hand.
	Tick          func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd
	Clip          io.Writer                                          // where y's OSC 52 goes
	Tmux          func(stdin string, args ...string) (string, error) // runs tmux (y inside tmux)
	Version       string                                             // chatlens's, for transcripts
	TranscriptDir string
	lastReq       ReqID // the last request number handed out (NewReq)
}

// UseStore is the store every command uses from now on; a read-only store
// turns the write keys off.
func (e *Common) UseStore(st *store.Store) {
	e.Store = st
	e.ReadOnly = e.ReadOnly || st.ReadOnly()
	if e.ReadOnly {
		e.Keys = e.Keys.WithoutWrites()
	}
}
