package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/themes"
)

// Script runs the UI with no terminal, for chatlens bench: keys go in as
// a keyboard sends them, every command runs in a goroutine of its own as
// Bubble Tea runs it, and its reply comes back through Update on the
// caller's goroutine. What is measured is the real model, not a copy of
// its reads.
type Script struct {
	m       *Model
	replies chan tea.Msg
	running int    // commands started whose reply has not come back
	drawn   func() // ListDrawn's, until the list is drawn
}

// NewScript opens the UI on st as opts.As (the default key bindings, no
// colour) at width x height, and settles the first screen.
func NewScript(ctx context.Context, st *store.Store, opts Options, width, height int) *Script {
	s := StartScript(ctx, st, opts, width, height)
	s.Settle()
	return s
}

// StartScript is NewScript returning at once, its reads under way
// (ListDrawn, Settle).
func StartScript(ctx context.Context, st *store.Store, opts Options, width, height int) *Script {
	theme, _ := themes.Get("none")
	s := &Script{m: newModel(ctx, st, opts, theme, keymap.Default()), replies: make(chan tea.Msg, 64)}
	s.start(s.m.Init())
	s.deliver(tea.WindowSizeMsg{Width: width, Height: height})
	return s
}

// ListDrawn takes replies until the list draws its first screen (or
// nothing is running): how long a user waits to see it, while the rows
// below it may still be filled behind it. then runs the moment it is
// drawn, before the commands that update started.
func (s *Script) ListDrawn(then func()) {
	s.drawn = then
	for s.running > 0 && s.drawn != nil {
		s.land(<-s.replies)
	}
	if s.drawn != nil {
		s.drawn()
		s.drawn = nil
	}
}

func (s *Script) listShown() bool { return !s.m.list.Loading() && len(s.m.list.Items()) > 0 }

// Keys types each key (a key name, or runes) and settles after each.
func (s *Script) Keys(keys ...string) {
	for _, k := range keys {
		s.deliver(scriptKey(k))
		s.Settle()
	}
}

// Hold sends key n times, one every interval as key repeat does, while the
// replies land meanwhile. waited counts the keys that did not move the
// cursor when they came (at the end of what is read: waiting, or dropped).
func (s *Script) Hold(key string, n int, every time.Duration) (waited int) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for sent := 0; sent < n; {
		select {
		case msg := <-s.replies:
			s.land(msg)
		case <-tick.C:
			before := s.Cursor()
			s.deliver(scriptKey(key))
			sent++
			if s.Cursor() == before {
				waited++
			}
		}
	}
	s.Settle()
	return waited
}

// Settle waits until every command started has answered, and the ones
// their replies started.
func (s *Script) Settle() {
	for s.running > 0 {
		s.land(<-s.replies)
	}
}

// Press types key and returns at once: what it started goes on (Reach,
// Settle).
func (s *Script) Press(key string) { s.deliver(scriptKey(key)) }

// Reach takes replies until the cursor is on seq, or nothing is running:
// how long a user waits to see it, while a scan may go on behind it.
func (s *Script) Reach(seq int64) {
	for s.running > 0 && s.Cursor() != seq {
		s.land(<-s.replies)
	}
}

// Cursor is the seq under the timeline's cursor (0 with none open).
func (s *Script) Cursor() int64 {
	if s.m.tl == nil {
		return 0
	}
	return s.m.tl.Cursor()
}

// Viewer is whose eyes the screen uses.
func (s *Script) Viewer() string { return s.m.viewer() }

func (s *Script) deliver(msg tea.Msg) {
	_, cmd := s.m.Update(msg)
	if s.drawn != nil && s.listShown() {
		s.drawn()
		s.drawn = nil
	}
	s.start(cmd)
}

// start runs cmd as Bubble Tea does: a batch's commands each on their own.
func (s *Script) start(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	s.running++
	go func() { s.replies <- cmd() }()
}

// land takes a command's reply: a batch starts its commands.
func (s *Script) land(msg tea.Msg) {
	s.running--
	switch msg := msg.(type) {
	case nil, tea.QuitMsg:
	case tea.BatchMsg:
		for _, c := range msg {
			s.start(c)
		}
	default:
		s.deliver(msg)
	}
}

// scriptKey is the key message of a key name or of runes.
func scriptKey(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}
