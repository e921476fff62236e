// Package msglog keeps every warning and error of the session, and the
// notices the status bar had to cut, and shows them with the operator's
// audit lines in the message log overlay (L), a scrollbox.
package msglog

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/components/scrollbox"
)

// Log keeps every warning and error of the session in full, and the
// notices the status bar had to cut: the status bar has one line, the log
// (its own key) shows them whole.
type Log struct {
	entries []logEntry
	last    map[string]string // per source, the text logged last (no repeats)
}

// Add logs text once per change of source's text ("" clears source).
func (l *Log) Add(source, text string, at time.Time, info bool) {
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

// AuditLoadedMsg carries the operator's audit lines, newest first.
type AuditLoadedMsg struct {
	req     common.ReqID
	entries []store.AuditEntry
	err     error
}

// Box is the message log overlay: the session's messages and the
// operator's audit lines, newest first, each in full, scrolled by lines.
type Box struct {
	e            *common.Common
	log          *Log
	box          scrollbox.Model
	audit        []store.AuditEntry // newest first
	auditErr     error
	auditReq     common.ReqID
	auditLoading bool
	width        int
}

var _ common.Component = (*Box)(nil)

// New is the overlay of log, closed by esc, L and q.
func New(e *common.Common, log *Log) Box {
	return Box{e: e, log: log, box: scrollbox.New(e.Keys, e.Keys.Back, e.Keys.MessageLog, e.Keys.Quit)}
}

// Open shows the log from its newest line and reads the operator's audit
// lines beside it (the file can be long: read off the update loop).
func (b *Box) Open() tea.Cmd {
	b.box.Open()
	if b.e.Store == nil {
		return nil
	}
	b.auditReq, b.auditLoading = b.e.NewReq(), true
	st, req := b.e.Store, b.auditReq
	return func() tea.Msg {
		entries, err := st.AuditTrail()
		return AuditLoadedMsg{req: req, entries: entries, err: err}
	}
}

// Closed reports that a close key ended the log.
func (b *Box) Closed() bool { return b.box.Closed() }

// Update scrolls or closes the box, and takes the audit lines it asked for.
func (b *Box) Update(msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(AuditLoadedMsg); ok {
		if msg.req == b.auditReq { // else an older opening of the log
			b.auditLoading, b.audit, b.auditErr = false, msg.entries, msg.err
		}
		return nil
	}
	return b.box.Update(msg)
}

// room is the lines of entries the box shows: the panes' height less its
// border, title, blank lines and closing line.
func room(height int) int { return max(1, height-6) }

// SetSize takes the screen's width and the height of the panes it floats over.
func (b *Box) SetSize(width, height int) {
	b.width = width
	lines := b.lines()
	if len(lines) == 0 {
		lines = []string{b.e.Theme.Muted.Render("no warnings or errors so far")}
	}
	b.box.SetLines(lines)
	b.box.SetSize(width, room(height))
}

func (b *Box) textWidth() int { return max(20, b.width-6) }

// lines are every entry wrapped in full, newest first: the session's
// messages and the audit lines interleaved by time.
func (b *Box) lines() []string {
	th := b.e.Theme
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
		stamp := it.at.In(b.e.Loc).Format("01-02 15:04:05") + " "
		for j, l := range common.WrapWords(it.text, w-len(stamp)) {
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
func (b *Box) auditItem(e store.AuditEntry) logItem {
	th := b.e.Theme
	// A seed or an import names no conversation and no seq: it is shown
	// as its action alone, not with empty fields.
	text := "audit: " + e.Action
	if e.Conversation != "" {
		text += " " + e.Conversation
	}
	if len(e.Seqs) > 0 {
		text += " seq " + store.FormatSeqs(e.Seqs)
	}
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
	return logItem{e.Time, projection.SingleLine(text), style}
}

// View is the log in a box as wide as the screen allows.
func (b *Box) View() string {
	th := b.e.Theme
	w := b.textWidth()
	title := fmt.Sprintf("Messages (%d)", len(b.log.entries))
	switch {
	case b.auditLoading:
		title += " · reading the audit log…"
	case b.auditErr != nil:
		title += " · audit log: " + b.auditErr.Error()
	case b.e.Store != nil && b.e.Operator != "":
		title += fmt.Sprintf(" · audit log of %s: %d %s", b.e.Operator, len(b.audit), plural(len(b.audit), "line", "lines"))
	}
	keys := b.e.Keys
	where := ""
	if b.box.Scrolls() {
		first, last, n := b.box.Range()
		where = fmt.Sprintf(" (lines %d–%d of %d, newest first)", first, last, n)
	}
	note := th.Muted.Render(projection.Truncate(fmt.Sprintf("%s %s scroll%s · %s or %s to close",
		keys.Up.Help().Key, keys.Down.Help().Key, where, keys.MessageLog.Help().Key, keys.Back.Help().Key), w))
	body := append([]string{th.Title.Render(projection.Truncate(projection.SingleLine(title), w)), ""}, b.box.Shown()...)
	body = append(body, "", note)
	return th.Dialog.Width(w + 2).Render(strings.Join(body, "\n"))
}

func (b *Box) ShortHelp() []key.Binding {
	keys := b.e.Keys
	return []key.Binding{keys.Up, keys.Down, common.Joined("close", keys.MessageLog, keys.Back)}
}

func (b *Box) FullHelp() [][]key.Binding { return [][]key.Binding{b.ShortHelp()} }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
