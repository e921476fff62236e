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

// contextSwitcher is the part that switches deployment: the contexts of
// the config file, how to open one and how to let one go.
type contextSwitcher struct {
	choices    []picker.Context
	configPath string
	open       Switch
	free       func(*store.Store) // nil: Store.Close
}

// suggestions complete a context's name at the : prompt (tab), after
// either word contextCommand takes.
func (c *contextSwitcher) suggestions() []string {
	var out []string
	for _, word := range []string{"context ", "ctx "} {
		for _, ch := range c.choices {
			out = append(out, word+ch.Name)
		}
	}
	return out
}

// noOther says there is no context to switch to from current, and where
// they would be named; ok false when there is one.
func (c *contextSwitcher) noOther(current string) (why string, none bool) {
	for _, ch := range c.choices {
		if ch.Name != current {
			return "", false
		}
	}
	return fmt.Sprintf("no other context (config: %s)", c.configPath), true
}

// picker is X: the picker of the contexts, the one in use marked.
func (c *contextSwitcher) picker(e *common.Common) picker.Model {
	return picker.NewContexts(e, "Switch context (* in use)", c.choices, e.Store.Context())
}

// refusal says why the switch to name is not started, if it is not: an
// unknown name (with the nearest), the context in use, a write under way.
func (c *contextSwitcher) refusal(name, current string, writing bool) (common.Note, bool) {
	var names []string
	for _, ch := range c.choices {
		names = append(names, ch.Name)
	}
	switch {
	case !slices.Contains(names, name):
		msg := "no context " + name
		if near := keymap.Nearest(name, names); near != "" {
			msg += " (did you mean " + near + "?)"
		} else {
			msg += " (" + c.configPath + " has " + strings.Join(names, ", ") + ")"
		}
		return common.Note{Text: msg, IsErr: true}, true
	case name == current:
		return common.Note{Text: "already on context " + name}, true
	case writing:
		return common.Note{Text: "a write is under way: switch when it is done", IsErr: true}, true
	case c.open == nil:
		return common.Note{Text: "this UI cannot switch context", IsErr: true}, true
	}
	return common.Note{}, false
}

// start opens the context's store in the background.
func (c *contextSwitcher) start(e *common.Common, name, viewer string) (*switching, tea.Cmd) {
	sw := &switching{req: e.NewReq(), name: name}
	return sw, switchCmd(e.Ctx, c.open, sw.req, name, viewer)
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
func (c *contextSwitcher) release(st *store.Store) tea.Cmd {
	if st == nil {
		return nil
	}
	free := c.free
	return func() tea.Msg {
		if free != nil {
			free(st)
		} else {
			_ = st.Close(context.Background())
		}
		return nil
	}
}

// askContext starts the switch to the context named (the picker of them
// when none is), or says why not.
func (m *Model) askContext(name string) tea.Cmd {
	name = strings.TrimSpace(name)
	current := m.e.Store.Context()
	if why, none := m.contexts.noOther(current); none {
		m.setStatus(why, true)
		return nil
	}
	if name == "" {
		m.showPicker(m.contexts.picker(m.e))
		return nil
	}
	if n, refused := m.contexts.refusal(name, current, len(m.writes) > 0); refused {
		m.setStatus(n.Text, n.IsErr)
		return nil
	}
	var cmd tea.Cmd
	m.switching, cmd = m.contexts.start(m.e, name, m.viewer())
	m.setStatus("switching to context "+name+"…", false)
	return cmd
}

// switched puts the new store in, or says why the old one stays. The
// screen is put on the new store with a new environment for every part, so
// the reads still running on the old store (which read their own
// environment's store) neither race with the switch nor land (their
// request numbers are no one's now). What was open on the old deployment
// (a conversation, a dialog, a prompt, a find) is closed; the message log
// is kept.
func (m *Model) switched(msg switchedMsg) tea.Cmd {
	if m.switching == nil || msg.req != m.switching.req {
		return m.contexts.release(msg.to.Store) // a switch asked for again meanwhile
	}
	m.switching = nil
	if msg.err != nil {
		m.setStatus("context "+msg.name+": "+msg.err.Error()+" (still on "+contextLabel(m.e.Store)+")", true)
		return m.contexts.release(msg.to.Store)
	}
	old := m.e.Store
	viewer := m.viewer()
	m.find.cancel()
	m.e = switchedCommon(m.e, msg.to, m.writeKeys)
	m.tl, m.focus, m.overlay = nil, paneList, ovNone
	m.viewers = viewerSwitch{}
	m.wf.close()
	m.input = lineinput.New(m.e)
	m.helpBox = keyhelp.New(m.e, &m.bar.help)
	m.logBox = msglog.New(m.e, &m.log)
	status := "switched to context " + msg.name
	var load tea.Cmd
	if msg.viewerKnown || viewer == "" {
		m.list = list.New(m.e, viewer)
		load = m.list.Load()
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
	return tea.Batch(load, m.contexts.release(old))
}

// contextLabel names the deployment of st.
func contextLabel(st *store.Store) string {
	if c := st.Context(); c != "" {
		return "context " + c
	}
	return st.Describe()
}

// switchedCommon is the environment on the store a switch opened: the
// request numbers go on from where they were; the keys are the write keys
// unless the context (or the run's --read-only, main) is read-only.
func switchedCommon(old *common.Common, to Switched, writeKeys keymap.KeyMap) *common.Common {
	e := *old
	e.Store, e.Deployment = to.Store, to.Deployment
	if to.TimeZone != nil {
		e.Loc = to.TimeZone
	}
	e.ReadOnly = to.Store.ReadOnly()
	e.Keys = writeKeys
	if e.ReadOnly {
		e.Keys = e.Keys.WithoutWrites()
	}
	return &e
}
