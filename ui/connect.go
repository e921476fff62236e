package ui

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/common"
)

// Connect opens the store while the UI is already on screen; warning is a
// problem that did not stop it (a cache that does not answer).
type Connect func(ctx context.Context) (st *store.Store, warning string, err error)

// connection is the state before the store answers: the UI draws from the
// first frame, saying what it waits for and for how long.
type connection struct {
	waiting bool
	to      string // what is being connected to, password masked
	err     error  // why it failed: the program ends with it
}

type connectedMsg struct {
	st      *store.Store
	warning string
	err     error
}

func connectCmd(ctx context.Context, connect Connect) tea.Cmd {
	return func() tea.Msg {
		st, warning, err := connect(ctx)
		return connectedMsg{st: st, warning: warning, err: err}
	}
}

// landed takes the connection's answer: false when it failed, and the
// program ends with the failure (main prints it and exits as it always did).
func (c *connection) landed(msg connectedMsg) bool {
	c.waiting = false
	c.err = msg.err
	return msg.err == nil
}

// line says what the UI waits for.
func (c *connection) line() string {
	return "connecting to " + projection.SingleLine(c.to) + "…"
}

// keyWhileConnecting: only quitting, help and the message log work before
// the store answers (and the keys of a box over the panes); every other
// key needs it.
func keyWhileConnecting(k tea.KeyMsg, keys keymap.KeyMap, overlaid bool) bool {
	return k.Type == tea.KeyCtrlC || overlaid || key.Matches(k, keys.Quit, keys.Help, keys.MessageLog)
}

// pane is drawn in place of the list until the store answers.
func (c *connection) pane(e *common.Common, owner string, width int) string {
	th := e.Theme
	title := "Conversations"
	if owner != "" {
		title += " of " + owner
	}
	return strings.Join([]string{
		th.Title.Render(projection.Truncate(projection.SingleLine(title), width)),
		th.Warn.Render(projection.Truncate(c.line(), width)),
		th.Muted.Render(projection.Truncate("the server has not answered yet; "+e.Keys.Quit.Help().Key+" to give up", width)),
	}, "\n")
}
