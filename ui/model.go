package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/components/confirm"
	"github.com/chatlens/chatlens/ui/components/copychoice"
	"github.com/chatlens/chatlens/ui/components/inspector"
	"github.com/chatlens/chatlens/ui/components/keyhelp"
	"github.com/chatlens/chatlens/ui/components/lineinput"
	"github.com/chatlens/chatlens/ui/components/msglog"
	"github.com/chatlens/chatlens/ui/components/picker"

	"github.com/chatlens/chatlens/ui/pages/list"

	"github.com/chatlens/chatlens/ui/pages/timeline"
)

type pane int

const (
	paneList pane = iota
	paneTimeline
)

// overlay is what covers the panes, if anything.
type overlay int

const (
	ovNone overlay = iota
	ovHelp
	ovConfirm
	ovInspector
	ovPicker
	ovMsgLog
	ovCopyChoice
)

// Model is the root of the program.
type Model struct {
	e             *common.Common
	writeKeys     keymap.KeyMap // the write bindings even when read-only, to refuse them by name
	width, height int
	focus         pane

	list list.Model
	tl   *timeline.Model
	find finder // a find by message ID (find.go)

	overlay    overlay
	confirm    confirm.Model
	picker     picker.Model
	inspector  inspector.Model
	helpBox    keyhelp.Model
	logBox     msglog.Box
	copyChoice copychoice.Model // what y copies

	input lineinput.Model // the one-line input at the bottom

	status    string
	statusErr bool
	statusAt  common.ReqID // when the status shown was set (now, then): a note said before it is stale
	now       common.ReqID // this update's number (in a burst, this key's)
	bar       bars         // the status bar and the footer below the panes (statusbar.go)
	log       msglog.Log   // every warning and error in full
	conn      connection
	connect   Connect
	wf        writeFlow // the write whose dialog is open (writeflow.go)
	// writes are the writes under way, by request number; quitting is set when the user
	// asked to quit meanwhile: the program ends when the last one is done,
	// so no write is cut off half way and each reaches the audit log.
	writes   map[common.ReqID]bool
	quitting bool
	asWhy    string       // why the starting viewer was picked (Options.AsWhy)
	viewers  viewerSwitch // changes whose eyes the list and the timeline use (switchviewer.go)

	// The contexts of the config file and how to switch (contexts.go).
	contexts  contextSwitcher
	switching *switching // a switch whose store has not answered yet (a confirmed write waits for it)
}

func newModel(ctx context.Context, st *store.Store, opts Options, theme themes.Theme, keys keymap.KeyMap) *Model {
	e := newCommon(ctx, st, opts, theme, keys)
	m := &Model{e: e, writeKeys: keys, bar: newBars(theme), writes: map[common.ReqID]bool{}, asWhy: opts.AsWhy,
		contexts: contextSwitcher{choices: opts.Contexts, configPath: opts.ConfigPath, open: opts.Switch, free: opts.Release}}
	m.list = list.New(e, opts.As)
	if st == nil && opts.Connect != nil {
		m.conn = connection{waiting: true, to: opts.ConnectingTo}
		m.connect = opts.Connect
	}
	m.input = lineinput.New(e)
	m.helpBox = keyhelp.New(e, &m.bar.help)
	m.logBox = msglog.New(e, &m.log)
	return m
}

// Init starts the first load: the list of --as, or a search for a user;
// or first the connection, when the store is still to be opened.
func (m *Model) Init() tea.Cmd {
	if m.conn.waiting {
		return connectCmd(m.e.Ctx, m.connect)
	}
	if m.list.Owner() == "" {
		return m.list.FindOwner()
	}
	if m.asWhy != "" {
		return tea.Batch(m.list.OwnerChosen(m.asWhy), m.list.Load())
	}
	return m.list.Load()
}

func (m *Model) setStatus(s string, isErr bool) { m.status, m.statusErr, m.statusAt = s, isErr, m.now }

// showNote shows what the list or the timeline said, unless the status was
// set since: a note said while handling a message or key wins over the
// root's own status of that update, as the latest word.
func (m *Model) showNote(n common.NoteMsg) {
	if n.At > m.statusAt {
		m.status, m.statusErr, m.statusAt = n.Text, n.IsErr, n.At
	}
}

// viewer is whose eyes the screen uses: the timeline's viewer once a
// conversation is open, else the owner of the list.
func (m *Model) viewer() string {
	if m.tl != nil {
		return m.tl.Viewer()
	}
	return m.list.Owner()
}

// Update handles replies from commands, terminal events and keys, and
// logs any problem they leave on the screen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.now = m.e.NewReq()
	_, cmd := m.update(msg)
	p := problems{status: m.status, statusErr: m.statusErr, width: m.width, listErr: m.list.Err(), tl: m.tl, conn: &m.conn}
	if m.e.Store != nil {
		p.cacheErr = m.e.Store.Stats().CacheError
	}
	p.log(&m.log, m.e.Now())
	m.layout()
	return m, cmd
}

// layout gives every component its size and what it shows after an
// update, so that View draws what is settled and changes nothing.
func (m *Model) layout() {
	h := m.bodyHeight()
	ps := m.paneSizes()
	m.list.SetFocused(m.focus == paneList)
	m.list.SetSize(ps.listW, ps.inner)
	if m.tl != nil {
		m.tl.SetFocused(m.focus == paneTimeline)
		m.tl.SetSize(ps.tlW, ps.inner)
	}
	m.input.SetSize(m.width, 1)
	m.picker.SetSize(m.width, h)
	m.confirm.SetSize(m.width, h)
	m.helpBox.SetSize(m.width, h)
	m.logBox.SetSize(m.width, h)
	m.copyChoice.SetSize(m.width, h)
	if m.overlay == ovInspector && m.tl != nil {
		m.inspector.SetSize(m.width, h)
		m.inspector.SetContent(m.tl.Cursor(), m.tl.Inspector().Lines(m.width))
	}
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case connectedMsg:
		if !m.conn.landed(msg) {
			return m, tea.Quit
		}
		m.e.UseStore(msg.st)
		if msg.warning != "" {
			m.setStatus(msg.warning, true)
		}
		return m, m.Init()
	case switchedMsg:
		return m, m.switched(msg)
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.bar.help.Width = msg.Width
	case tea.KeyMsg:
		return m, m.handleKeys(msg)
	case tea.MouseMsg:
		return m, m.handleMouse(msg)
	case timeline.MembersLoadedMsg:
		return m, m.membersLoaded(msg)
	case viewAsCheckedMsg:
		cmd, note := m.viewers.checked(msg, m.tl, &m.list)
		if note.Text != "" {
			m.setStatus(note.Text, note.IsErr)
		}
		return m, cmd
	case planReadMsg:
		return m, m.planRead(msg)
	case actionDoneMsg:
		return m, m.actionDone(msg)
	case readSeqLoadedMsg:
		return m, m.readSeqLoaded(msg)
	case findEvent:
		return m, m.findEvent(msg)
	case copychoice.CopiedMsg:
		m.setStatus(msg.Status())
	case msglog.AuditLoadedMsg:
		return m, m.logBox.Update(msg)
	case common.NoteMsg: // the list's
		m.showNote(msg)
	// What the open timeline tells (one from a conversation already left
	// is dropped).
	case timeline.NoteMsg:
		if msg.Of(m.tl) {
			m.showNote(msg.NoteMsg)
		}
	case timeline.SwitchViewerMsg: // decided on a reply
		if msg.Of(m.tl) {
			return m, m.viewers.follow(m.tl, &m.list, msg)
		}
	case timeline.TranscriptWrittenMsg:
		if msg.Of(m.tl) {
			m.showWritten(msg)
		}
	case timeline.FollowedMsg:
		if msg.Of(m.tl) {
			followList(&m.list, m.tl)
		}
	default:
		if m.tl != nil {
			if cmd, ok := m.tl.Reply(msg); ok {
				return m, cmd
			}
		}
		if res, ok := m.list.Reply(msg, openID(m.tl)); ok {
			return m, listLanded(m.tl, res)
		}
		// Replies to a child's own commands (a paste from the clipboard)
		// go back to the child that is open.
		switch {
		case m.input.Open():
			return m, tea.Batch(m.input.Update(msg), m.inputChanged())
		case m.overlay == ovPicker:
			return m, m.picker.Update(msg)
		}
	}
	return m, nil
}

// openID is the conversation t shows, "" when none is open.
func openID(t *timeline.Model) string {
	if t == nil {
		return ""
	}
	return t.ID()
}

// listLanded gives the timeline (nil: none open) what a reply of the
// list brought for it: the names read, the window it waits for.
func listLanded(t *timeline.Model, res list.Landed) tea.Cmd {
	var win tea.Cmd
	if t != nil {
		if res.Names != nil {
			t.Viewers().AddNames(res.Names)
		}
		if w := res.Window; w != nil {
			win = t.Viewers().TakeWindow(w.Req, w.Viewer, w.Win, w.Err)
		}
	}
	return tea.Batch(win, res.Cmd)
}

// openSelected opens the conversation under the list cursor as the list owner.
func (m *Model) openSelected() tea.Cmd {
	it := m.list.Selected()
	if it == nil {
		return nil
	}
	m.tl = timeline.New(m.e, conversation(it), m.list.Owner(), m.list.Names())
	m.focus = paneTimeline
	return m.tl.Open()
}

// conversation is what the timeline takes of a row of the list.
func conversation(it *list.Item) timeline.Conversation {
	return timeline.Conversation{Sum: it.Sum, Name: it.Name, Peer: it.Peer}
}

func (m *Model) actionDone(msg actionDoneMsg) tea.Cmd {
	if !m.writes[msg.req] {
		return nil // not a write this model started
	}
	delete(m.writes, msg.req)
	if m.quitting && len(m.writes) == 0 {
		return tea.Quit
	}
	what := fmt.Sprintf("%s seq %s as %s", msg.act, store.FormatSeqs(msg.seqs), msg.viewer)
	switch {
	case msg.err != nil:
		m.setStatus(what+outcomeWord(msg)+msg.err.Error(), true)
		if len(msg.res.Applied) == 0 && len(msg.res.Unknown) == 0 && !errors.Is(msg.err, store.ErrOutcomeUnknown) {
			return nil // nothing was written: nothing to read again
		}
	case msg.api != nil && len(msg.api.Unconfirmed) > 0:
		m.setStatus(what+": the server accepted it; the store does not show it yet", true)
	case msg.api != nil:
		m.setStatus(what+": done; "+msg.api.NoticeSummary(), len(msg.api.Unnoticed) > 0)
	default:
		m.setStatus(what+": done", false)
	}
	if msg.err == nil && msg.res.StaleCache != nil {
		m.setStatus(what+": done, but the cache may be stale: "+msg.res.StaleCache.Error(), true)
	}
	// What was written, or may have been, is read back from the store: the
	// rows, and the list's counts or, after a mark read, the read seq they
	// and the read line show.
	var cmds []tea.Cmd
	if msg.act == actRead {
		cmds = m.afterMarkRead(msg.viewer, msg.cid)
	} else {
		cmds = append(cmds, m.list.Load())
	}
	if t := m.tl; t != nil && t.ID() == msg.cid {
		cmds = append(cmds, t.RefreshAfterWrite(msg.seqs))
	}
	return tea.Batch(cmds...)
}

// outcomeWord leads the status of a write that ended in an error: "failed"
// only when nothing was written and nothing may have been; the store's
// line after it says which seqs are which.
func outcomeWord(msg actionDoneMsg) string {
	var unconfirmed []int64
	if msg.api != nil {
		unconfirmed = msg.api.Unconfirmed
	}
	shown := 0
	for _, s := range msg.res.Applied {
		if !slices.Contains(unconfirmed, s) {
			shown++
		}
	}
	switch {
	case shown > 0 && shown == len(msg.seqs) && len(msg.res.Unknown) == 0:
		return ": " // all done; the error is about what came after
	case shown > 0:
		return ": partly done: "
	case len(msg.res.Applied) > 0 || len(msg.res.Unknown) > 0 || errors.Is(msg.err, store.ErrOutcomeUnknown):
		return ": outcome unknown: "
	}
	return " failed: "
}
