package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/components/keyhelp"
	"github.com/chatlens/chatlens/ui/components/lineinput"
	"github.com/chatlens/chatlens/ui/components/msglog"
	"github.com/chatlens/chatlens/ui/components/picker"
	"github.com/chatlens/chatlens/ui/pages/list"
)

// Switching deployment (a context of the config file) without leaving: X
// opens a picker of the contexts, :context NAME names one. main opens the
// new store (Options.Switch) in the background while the old one stays on
// screen and usable; only once the new one has answered does the screen
// change to it, and only then is the old one let go. A switch that fails
// is one line, and changes nothing.

// Switch opens the store of the context named, as main opens the first
// one: its read-only state is the context's (or the run's --read-only).
type Switch func(ctx context.Context, name string) (Switched, error)

// Switched is a store Switch opened.
type Switched struct {
	Store   *store.Store
	Warning string // a problem that did not stop it (a cache that does not answer)
	// Deployment: a MongoDB deployment devices sync from (Options.Deployment).
	Deployment bool
	// TimeZone shows times from now on (a context's utc: true); nil: as
	// before.
	TimeZone *time.Location
}

// switching is a switch asked for whose store has not answered yet.
type switching struct {
	req  common.ReqID
	name string
}

type switchedMsg struct {
	req         common.ReqID
	name        string
	to          Switched
	viewerKnown bool // the viewer is a user of the new deployment
	err         error
}

// contextCommand reads "context NAME" (or "ctx NAME", as k9s has it) typed
// at the : prompt; name is "" for the word alone.
func contextCommand(input string) (name string, ok bool) {
	f := strings.Fields(input)
	if len(f) == 0 || f[0] != "context" && f[0] != "ctx" {
		return "", false
	}
	return strings.Join(f[1:], " "), true
}

// contextSuggestions complete a context's name at the : prompt (tab),
// after either word contextCommand takes.
func (m *Model) contextSuggestions() []string {
	var out []string
	for _, word := range []string{"context ", "ctx "} {
		for _, c := range m.contexts {
			out = append(out, word+c.Name)
		}
	}
	return out
}

// otherContexts tells whether there is any context to switch to; else it
// says there is none, and where they would be named.
func (m *Model) otherContexts() bool {
	for _, c := range m.contexts {
		if c.Name != m.e.Store.Context() {
			return true
		}
	}
	m.setStatus(fmt.Sprintf("no other context (config: %s)", m.configPath), true)
	return false
}

// openContexts is X: the picker of the contexts, the one in use marked.
func (m *Model) openContexts() {
	if !m.otherContexts() {
		return
	}
	m.picker = picker.NewContexts(m.e, "Switch context (* in use)", m.contexts, m.e.Store.Context())
	m.picker.SetSize(m.width, m.bodyHeight())
	m.overlay = ovPicker
}

// listColon is : in the list: the prompt with "context " typed, the names
// completed by tab (a seq or a date needs a conversation open).
func (m *Model) listColon() {
	if !m.otherContexts() {
		m.status += "; : jumps to a seq or date in an open conversation"
		return
	}
	m.startInput(inJump, ":", "context ")
	m.input.Suggest(m.contextSuggestions())
}

// askContext starts the switch to the context named, or says why not.
func (m *Model) askContext(name string) tea.Cmd {
	name = strings.TrimSpace(name)
	var names []string
	for _, c := range m.contexts {
		names = append(names, c.Name)
	}
	switch {
	case name == "":
		m.openContexts()
		return nil
	case !m.otherContexts():
		return nil
	case !slices.Contains(names, name):
		msg := "no context " + name
		if near := keymap.Nearest(name, names); near != "" {
			msg += " (did you mean " + near + "?)"
		} else {
			msg += " (" + m.configPath + " has " + strings.Join(names, ", ") + ")"
		}
		m.setStatus(msg, true)
		return nil
	case name == m.e.Store.Context():
		m.setStatus("already on context "+name, false)
		return nil
	case len(m.writes) > 0:
		m.setStatus("a write is under way: switch when it is done", true)
		return nil
	case m.switcher == nil:
		m.setStatus("this UI cannot switch context", true)
		return nil
	}
	m.switching = &switching{req: m.e.NewReq(), name: name}
	m.setStatus("switching to context "+name+"…", false)
	return switchCmd(m.e.Ctx, m.switcher, m.switching.req, name, m.viewer())
}

// switchCmd opens the context's store and asks it whether the viewer is a
// user there (as u asks): a store that cannot answer is a failed switch.
func switchCmd(ctx context.Context, sw Switch, req common.ReqID, name, viewer string) tea.Cmd {
	return func() tea.Msg {
		to, err := sw(ctx, name)
		if err != nil {
			return switchedMsg{req: req, name: name, err: err}
		}
		known := true
		if viewer != "" {
			err := to.Store.CheckIDs(ctx, "", viewer)
			var missing store.NoSuchError
			switch {
			case errors.As(err, &missing):
				known = false
			case err != nil:
				return switchedMsg{req: req, name: name, to: to, err: err}
			}
		}
		return switchedMsg{req: req, name: name, to: to, viewerKnown: known}
	}
}

// release lets a store go in the background (closing one may wait on the
// server).
func (m *Model) release(st *store.Store) tea.Cmd {
	if st == nil {
		return nil
	}
	free := m.releaser
	return func() tea.Msg {
		if free != nil {
			free(st)
		} else {
			_ = st.Close(context.Background())
		}
		return nil
	}
}

// switched puts the new store in, or says why the old one stays.
func (m *Model) switched(msg switchedMsg) tea.Cmd {
	if m.switching == nil || msg.req != m.switching.req {
		return m.release(msg.to.Store) // a switch asked for again meanwhile
	}
	m.switching = nil
	if msg.err != nil {
		m.setStatus("context "+msg.name+": "+msg.err.Error()+" (still on "+m.contextLabel()+")", true)
		return m.release(msg.to.Store)
	}
	old := m.e.Store
	viewer := m.viewer()
	m.useStore(msg.to)
	status := "switched to context " + msg.name
	var load tea.Cmd
	if msg.viewerKnown || viewer == "" {
		m.list = list.New(m.e, viewer)
		load = m.reloadList()
		status += ": viewing as " + viewer
	} else {
		// As at a start without --as: the list finds whom to view as.
		m.list = list.New(m.e, "")
		m.list.OwnerLost(viewer + " is no user of context " + msg.name)
		load = m.list.FindOwner()
	}
	if msg.to.Warning != "" {
		m.setStatus(status+" · "+msg.to.Warning, true)
	} else {
		m.setStatus(status, false)
	}
	return tea.Batch(load, m.release(old))
}

// contextLabel names the deployment on screen now.
func (m *Model) contextLabel() string {
	if c := m.e.Store.Context(); c != "" {
		return "context " + c
	}
	return m.e.Store.Describe()
}

// useStore puts the screen on st: a new environment for every part, so
// the reads still running on the old store (which read their own
// environment's store) neither race with the switch nor land (their
// request numbers are no one's now). What was open on the old deployment
// (a conversation, a dialog, a prompt, a find) is closed; the message log
// is kept.
func (m *Model) useStore(to Switched) {
	m.cancelFind()
	e := *m.e // the request numbers go on from where they were
	e.Store, e.Deployment = to.Store, to.Deployment
	if to.TimeZone != nil {
		e.Loc = to.TimeZone
	}
	e.ReadOnly = to.Store.ReadOnly() // the context's, or the run's --read-only (main)
	e.Keys = m.writeKeys
	if e.ReadOnly {
		e.Keys = e.Keys.WithoutWrites()
	}
	m.e = &e
	m.tl, m.focus, m.overlay = nil, paneList, ovNone
	m.viewAsReq = 0
	m.wf.close()
	m.input = lineinput.New(m.e)
	m.helpBox = keyhelp.New(m.e, &m.help)
	m.logBox = msglog.New(m.e, &m.log)
}
