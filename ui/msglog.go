package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

// msgLog keeps every warning and error of the session in full, and the
// notices the status bar had to cut: the status bar has one line, the log
// (its own key) shows them whole.
type msgLog struct {
	entries []logEntry
	last    map[string]string // per source, the text logged last (no repeats)
}

// add logs text once per change of source's text ("" clears source).
func (l *msgLog) add(source, text string, at time.Time, info bool) {
	if l.last == nil {
		l.last = map[string]string{}
	}
	if text == "" || l.last[source] == text {
		l.last[source] = text
		return
	}
	l.last[source] = text
	text = projection.SingleLine(text)
	if n := len(l.entries); n > 0 && l.entries[n-1].text == text {
		l.entries[n-1].times++ // a retry failing the same way
		l.entries[n-1].at = at
		return
	}
	l.entries = append(l.entries, logEntry{text: text, times: 1, at: at, info: info})
}

type logEntry struct {
	text  string
	times int
	at    time.Time // the last time it was logged
	info  bool      // a notice, not a warning or error
}

// noteProblems logs the problems the screen shows now: the status bar's
// error (or a notice it cuts), a failed list or timeline load, a failing
// cache.
func (m *Model) noteProblems() {
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	now := m.e.now()
	status, notice := "", ""
	switch {
	case m.statusErr:
		status = m.status
	case m.width > 0 && projection.Width(projection.SingleLine(m.status)) > m.width:
		notice = m.status // cut on the status line: whole in the log
	}
	m.log.add("status", status, now, false)
	m.log.add("notice", notice, now, true)
	m.log.add("list", prefixed("conversation list: ", errText(m.list.err)), now, false)
	if m.tl != nil {
		m.log.add("timeline", prefixed(m.tl.cid+": ", errText(m.tl.err)), now, false)
	}
	if m.e.st != nil {
		m.log.add("cache", prefixed("cache failing, reading the store: ", errText(m.e.st.Stats().CacheError)), now, false)
	}
	m.log.add("connect", prefixed("could not connect to "+m.conn.to+": ", errText(m.conn.err)), now, false)
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

// auditLoadedMsg carries the operator's audit lines, newest first.
type auditLoadedMsg struct {
	req     reqID
	entries []store.AuditEntry
	err     error
}

// openLog shows the message log and reads the operator's audit lines
// beside it (the file can be long: read off the update loop).
func (m *Model) openLog() tea.Cmd {
	b := &m.logBox
	b.closed, b.scroll, m.overlay = false, 0, ovMsgLog
	if m.e.st == nil {
		return nil
	}
	b.auditReq, b.auditLoading = m.e.newReq(), true
	st, req := m.e.st, b.auditReq
	return func() tea.Msg {
		entries, err := st.AuditTrail()
		return auditLoadedMsg{req: req, entries: entries, err: err}
	}
}

func (b *logBox) auditLoaded(msg auditLoadedMsg) {
	if msg.req != b.auditReq {
		return // an older opening of the log
	}
	b.auditLoading, b.audit, b.auditErr = false, msg.entries, msg.err
}

// logBox is the message log overlay: the session's messages and the
// operator's audit lines, newest first, each in full, scrolled by lines.
type logBox struct {
	e            *common
	log          *msgLog
	audit        []store.AuditEntry // newest first
	auditErr     error
	auditReq     reqID
	auditLoading bool

	scroll        int // lines hidden above the top of the box
	width, height int
	closed        bool
}

func (b *logBox) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := b.e.keys
	if key.Matches(k, keys.Back, keys.MessageLog, keys.Quit) {
		b.closed = true
	} else if top, ok := scrollTop(k, keys, b.scroll, b.room(), len(b.lines())); ok {
		b.scroll = top
	}
	return nil
}

func (b *logBox) clamp() { b.scroll = max(0, min(b.scroll, len(b.lines())-b.room())) }

// room is the lines of entries the box shows: the panes' height less its
// border, title, blank lines and closing line.
func (b *logBox) room() int { return max(1, b.height-6) }

// SetSize takes the screen's width and the height of the panes it floats over.
func (b *logBox) SetSize(width, height int) {
	b.width, b.height = width, height
	b.clamp()
}

func (b *logBox) textWidth() int { return max(20, b.width-6) }

// lines are every entry wrapped in full, newest first: the session's
// messages and the audit lines interleaved by time.
func (b *logBox) lines() []string {
	th := b.e.theme
	w := b.textWidth()
	var items []logItem
	for i := len(b.log.entries) - 1; i >= 0; i-- {
		e := b.log.entries[i]
		text, style := "error: "+e.text, th.Error
		if e.info {
			text, style = "notice: "+e.text, th.Text
		}
		if e.times > 1 {
			text += fmt.Sprintf(" (%d times)", e.times)
		}
		items = append(items, logItem{e.at, text, style})
	}
	// Both lists are newest first: merge them by time.
	merged := make([]logItem, 0, len(items)+len(b.audit))
	a := 0
	for _, it := range items {
		for ; a < len(b.audit) && b.audit[a].Time.After(it.at); a++ {
			merged = append(merged, b.auditItem(b.audit[a]))
		}
		merged = append(merged, it)
	}
	for ; a < len(b.audit); a++ {
		merged = append(merged, b.auditItem(b.audit[a]))
	}
	var out []string
	for _, it := range merged {
		stamp := it.at.In(b.e.loc).Format("01-02 15:04:05") + " "
		for j, l := range wrapWords(it.text, w-len(stamp)) {
			if j == 0 {
				l = stamp + l
			} else {
				l = strings.Repeat(" ", len(stamp)) + l
			}
			out = append(out, it.style.Render(l))
		}
	}
	return out
}

// logItem is one entry of the log box before it is wrapped.
type logItem struct {
	at    time.Time
	text  string
	style lipgloss.Style
}

// auditItem is one audit line as the log shows it: what was asked, of
// which seqs, for whom, and what came of it.
func (b *logBox) auditItem(e store.AuditEntry) logItem {
	th := b.e.theme
	text := fmt.Sprintf("audit: %s %s seq %s", e.Action, e.Conversation, store.FormatSeqs(e.Seqs))
	if e.As != "" {
		text += " as " + e.As
	}
	if e.Admin {
		text += " (app admin)"
	}
	text += ": " + e.Result
	if len(e.Applied) > 0 {
		text += ", applied " + store.FormatSeqs(e.Applied)
	}
	if len(e.Unknown) > 0 {
		text += ", unknown " + store.FormatSeqs(e.Unknown)
	}
	if e.Error != "" {
		text += ": " + e.Error
	}
	style := th.Text
	if e.Result == store.ResultRefused || e.Result == store.ResultFailed || e.Result == store.ResultUnknown || e.Result == store.ResultPartial {
		style = th.Error
	}
	return struct {
		at    time.Time
		text  string
		style lipgloss.Style
	}{e.Time, projection.SingleLine(text), style}
}

// View is the log in a box as wide as the screen allows.
func (b *logBox) View() string {
	th := b.e.theme
	w := b.textWidth()
	lines := b.lines()
	if len(lines) == 0 {
		lines = []string{th.Muted.Render("no warnings or errors so far")}
	}
	shown := lines[min(b.scroll, len(lines)-1):min(len(lines), b.scroll+b.room())]
	title := fmt.Sprintf("Messages (%d)", len(b.log.entries))
	switch {
	case b.auditLoading:
		title += " · reading the audit log…"
	case b.auditErr != nil:
		title += " · audit log: " + b.auditErr.Error()
	case b.e.st != nil && b.e.operator != "":
		title += fmt.Sprintf(" · audit log of %s: %d %s", b.e.operator, len(b.audit), plural(len(b.audit), "line", "lines"))
	}
	keys := b.e.keys
	where := ""
	if len(lines) > len(shown) {
		where = fmt.Sprintf(" (lines %d–%d of %d, newest first)", b.scroll+1, b.scroll+len(shown), len(lines))
	}
	note := th.Muted.Render(projection.Truncate(fmt.Sprintf("%s %s scroll%s · %s or %s to close",
		keys.Up.Help().Key, keys.Down.Help().Key, where, keys.MessageLog.Help().Key, keys.Back.Help().Key), w))
	body := append([]string{th.Title.Render(projection.Truncate(projection.SingleLine(title), w)), ""}, shown...)
	body = append(body, "", note)
	return th.Dialog.Width(w + 2).Render(strings.Join(body, "\n"))
}

func (b *logBox) ShortHelp() []key.Binding {
	keys := b.e.keys
	return []key.Binding{keys.Up, keys.Down, joined("close", keys.MessageLog, keys.Back)}
}

func (b *logBox) FullHelp() [][]key.Binding { return [][]key.Binding{b.ShortHelp()} }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
