package ui

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/keymap"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/themes"
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
	e             *common
	writeKeys     keymap.KeyMap // the write bindings even when read-only, to refuse them by name
	width, height int
	focus         pane

	list convList
	tl   *timeline
	find *finding // a find by message ID in flight (find.go)

	overlay    overlay
	confirm    confirmDialog
	picker     picker
	inspector  inspector
	helpBox    helpBox
	logBox     logBox
	copyChoice copyChoice // what y copies (copychoice.go)

	input lineInput // the one-line input at the bottom (input.go)

	status    string
	statusErr bool
	log       msgLog // every warning and error in full
	conn      connection
	connect   Connect
	// usersKnown: a list load found user records, so the user collection
	// is there and a user missing from it is worth a warning.
	usersKnown bool
	// revokeWaits is a revoke asked for before the members (and so the
	// revoker's role) were known: it is offered when they arrive, only if
	// the same message is still selected by the same viewer.
	revokeWaits *pendingRevoke
	// writes are the writes under way, by request number; quitting is set when the user
	// asked to quit meanwhile: the program ends when the last one is done,
	// so no write is cut off half way and each reaches the audit log.
	writes   map[reqID]bool
	quitting bool
	refusals []tea.Cmd // audits of refused writes, not yet run
	asWhy    string    // why the starting viewer was picked (Options.AsWhy)
	help     help.Model
}

func newModel(ctx context.Context, st *store.Store, opts Options, theme themes.Theme, keys keymap.KeyMap) *Model {
	e := newCommon(ctx, st, opts, theme, keys)
	m := &Model{e: e, writeKeys: keys, help: help.New(), writes: map[reqID]bool{}, asWhy: opts.AsWhy}
	m.help.Styles.ShortKey = theme.Accent
	m.help.Styles.ShortDesc = theme.Muted
	m.help.Styles.FullKey = theme.Accent
	m.help.Styles.FullDesc = theme.Text
	// help's own defaults are colours: the theme's muted style replaces
	// them, so --theme none and NO_COLOR emit none.
	m.help.Styles.ShortSeparator = theme.Muted
	m.help.Styles.FullSeparator = theme.Muted
	m.help.Styles.Ellipsis = theme.Muted
	m.list.e, m.list.owner = e, opts.As
	if st == nil && opts.Connect != nil {
		m.conn = connection{waiting: true, to: opts.ConnectingTo}
		m.connect = opts.Connect
	}
	m.input = newLineInput(e)
	m.helpBox = helpBox{e: e, help: &m.help}
	m.logBox = logBox{e: e, log: &m.log}
	return m
}

// Init starts the first load: the list of --as, or a search for a user;
// or first the connection, when the store is still to be opened.
func (m *Model) Init() tea.Cmd {
	if m.conn.waiting {
		return connectCmd(m.e.ctx, m.connect)
	}
	if m.list.owner == "" {
		m.list.loading = true
		m.list.req = m.e.newReq()
		return findFirstViewer(m.e, m.list.req)
	}
	if m.asWhy != "" {
		m.setStatus(fmt.Sprintf("no --as given: viewing as %s (%s) · %s to view as anyone",
			m.list.owner, m.asWhy, m.e.keys.ViewAsAny.Help().Key), false)
	}
	return m.reloadList()
}

func (m *Model) reloadList() tea.Cmd {
	m.list.req = m.e.newReq()
	m.list.loading = true
	return loadList(m.e, m.list.req, m.list.owner)
}

func (m *Model) setStatus(s string, isErr bool) { m.status, m.statusErr = s, isErr }

// viewer is whose eyes the screen uses: the timeline's viewer once a
// conversation is open, else the owner of the list.
func (m *Model) viewer() string {
	if m.tl != nil {
		return m.tl.viewer
	}
	return m.list.owner
}

// Update handles replies from commands, terminal events and keys, and
// logs any problem they leave on the screen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := m.update(msg)
	m.noteProblems()
	m.layout()
	return m, cmd
}

// layout gives every component its size and what it shows after an
// update, so that View draws what is settled and changes nothing.
func (m *Model) layout() {
	h := m.bodyHeight()
	ps := m.paneSizes()
	m.list.focused = m.focus == paneList
	m.list.SetSize(ps.listW, ps.inner)
	if m.tl != nil {
		m.tl.focused = m.focus == paneTimeline
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
		m.inspector.setContent(m.tl.cursor, m.inspectorLines())
	}
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case connectedMsg:
		return m, m.connected(msg)
	case followTickMsg:
		return m, m.followTicked(msg)
	case followPolledMsg:
		return m, m.followPolled(msg)
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = msg.Width
	case tea.KeyMsg:
		return m, m.withRefusals(m.handleKeys(msg))
	case tea.MouseMsg:
		return m, m.handleMouse(msg)
	case firstViewerMsg:
		if msg.req != m.list.req {
			return m, nil // a retry asked again meanwhile
		}
		if msg.err != nil || msg.viewer == "" {
			m.list.loading = false
			m.list.err = msg.err
			if m.list.err == nil {
				m.list.err = errors.New("no conversations stored: start with --as USER")
			}
			return m, nil
		}
		m.list.owner = msg.viewer
		m.setStatus(fmt.Sprintf("no --as given: viewing as %s (%s) · %s to view as anyone",
			msg.viewer, msg.why, m.e.keys.ViewAsAny.Help().Key), false)
		return m, m.reloadList()
	case viewerReadMsg:
		return m, m.viewerRead(msg)
	case listLoadedMsg:
		if msg.req != m.list.req {
			return m, nil // a list for a viewer already left
		}
		m.list.loading = false
		m.list.err = msg.err
		if msg.err == nil {
			open := ""
			if m.tl != nil {
				open = m.tl.cid
			}
			m.list.setItems(msg.items, open)
			m.list.itemsFor = msg.owner
			m.list.names, m.list.groups = msg.names, msg.groups
			m.list.fromMessages = msg.fromMessages
			if m.tl != nil {
				maps.Copy(m.tl.names, msg.names)
			}
			m.warnUnknownOwner(msg)
		}
	case bucketsLoadedMsg:
		if m.tl != nil {
			cmd := m.tl.loaded(msg)
			if m.tl.follow.on {
				m.followList()
			}
			return m, cmd
		}
	case membersLoadedMsg:
		return m, m.withRefusals(m.membersLoaded(msg))
	case windowLoadedMsg:
		if m.tl != nil {
			return m, m.windowLoaded(msg)
		}
	case actionDoneMsg:
		return m, m.actionDone(msg)
	case readSeqLoadedMsg:
		return m, m.readSeqLoaded(msg)
	case searchStepMsg:
		return m, m.searchStep(msg)
	case diffStepMsg:
		return m, m.diffStepped(msg)
	case findEvent:
		return m, m.findEvent(msg)
	case jumpResolvedMsg:
		return m, m.jumpResolved(msg)
	case transcriptWrittenMsg:
		m.transcriptWritten(msg)
	case readersLoadedMsg:
		if m.tl != nil {
			m.tl.readersLoaded(msg)
		}
	case copiedMsg:
		m.copied(msg)
	case auditLoadedMsg:
		m.logBox.auditLoaded(msg)
	default:
		// Replies to a child's own commands (a paste from the clipboard)
		// go back to the child that is open.
		return m, m.childMsg(msg)
	}
	return m, nil
}

// childMsg routes a message no one above knows to the open input.
func (m *Model) childMsg(msg tea.Msg) tea.Cmd {
	switch {
	case m.input.open():
		return tea.Batch(m.input.Update(msg), m.inputChanged())
	case m.overlay == ovPicker:
		return m.picker.Update(msg)
	}
	return nil
}

// jumpResolved moves the cursor where a background jump found, unless a
// newer jump (G, g, another seq or date) came first.
func (m *Model) jumpResolved(msg jumpResolvedMsg) tea.Cmd {
	t := m.tl
	if t == nil || msg.req != t.jumpReq {
		return nil
	}
	t.jumpReq = 0
	if msg.err != nil {
		m.setStatus("jump: "+msg.err.Error(), true)
		return nil
	}
	m.setStatus(fmt.Sprintf("jumped to seq %d", msg.seq), false)
	return t.jumpTo(msg.seq)
}

// windowLoaded takes a viewer's window the timeline waits for: its viewer's
// after a switch, or the compare view's; any other is of a viewer left.
func (m *Model) windowLoaded(msg windowLoadedMsg) tea.Cmd {
	t := m.tl
	switch msg.req {
	case t.winReq:
		t.winReq = 0
	case t.compareReq:
		t.compareReq = 0
	default:
		return nil
	}
	if msg.err != nil {
		m.setStatus("window of "+msg.viewer+": "+msg.err.Error(), true)
		return nil
	}
	return t.windowLoaded(msg)
}

// warnUnknownOwner says so when the list's owner looks like a mistyped ID:
// no conversation documents, and no user record while the user collection
// answered for others (an empty collection proves nothing).
func (m *Model) warnUnknownOwner(msg listLoadedMsg) {
	if len(msg.names) > 0 {
		m.usersKnown = true
	}
	if !msg.fromMessages && len(msg.items) > 0 {
		return
	}
	if _, known := msg.names[msg.owner]; !known && m.usersKnown {
		m.setStatus(fmt.Sprintf("no user %q in the user collection: check the ID (%s to view as another)",
			msg.owner, m.e.keys.ViewAsAny.Help().Key), true)
	}
}

// openSelected opens the conversation under the list cursor as the list owner.
func (m *Model) openSelected() tea.Cmd {
	it := m.list.selected()
	if it == nil {
		return nil
	}
	m.tl = newTimeline(m.e, it, m.list.owner, m.list.names)
	m.focus = paneTimeline
	return m.tl.open()
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
		cmds = append(cmds, m.reloadList())
	}
	if t := m.tl; t != nil && t.cid == msg.cid {
		cmds = append(cmds, t.refreshAfterWrite(msg.seqs))
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
