package ui

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
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

// connected swaps the store in and starts the first load, or ends the
// program with the failure (main prints it and exits as it always did).
func (m *Model) connected(msg connectedMsg) tea.Cmd {
	m.conn.waiting = false
	if msg.err != nil {
		m.conn.err = msg.err
		return tea.Quit
	}
	m.e.UseStore(msg.st)
	if msg.warning != "" {
		m.setStatus(msg.warning, true)
	}
	return m.Init()
}

// connectingLine says what the UI waits for.
func (m *Model) connectingLine() string {
	return "connecting to " + projection.SingleLine(m.conn.to) + "…"
}

// keyWhileConnecting: only quitting, help and the message log work before
// the store answers; every other key needs it.
func (m *Model) keyWhileConnecting(k tea.KeyMsg) bool {
	keys := m.e.Keys
	return k.Type == tea.KeyCtrlC || m.overlay != ovNone || key.Matches(k, keys.Quit, keys.Help, keys.MessageLog)
}

func (m *Model) connectingPane(width int) string {
	th := m.e.Theme
	title := "Conversations"
	if owner := m.list.Owner(); owner != "" {
		title += " of " + owner
	}
	return strings.Join([]string{
		th.Title.Render(projection.Truncate(projection.SingleLine(title), width)),
		th.Warn.Render(projection.Truncate(m.connectingLine(), width)),
		th.Muted.Render(projection.Truncate("the server has not answered yet; "+m.e.Keys.Quit.Help().Key+" to give up", width)),
	}, "\n")
}
