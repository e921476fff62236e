package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
)

// msgLog keeps every warning and error of the session in full: the status
// bar has one line and cuts them, the log (its own key) shows them whole.
type msgLog struct {
	entries []logEntry
	last    map[string]string // per source, the text logged last (no repeats)
}

// add logs text once per change of source's text ("" clears source).
func (l *msgLog) add(source, text string) {
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
		return
	}
	l.entries = append(l.entries, logEntry{text: text, times: 1})
}

type logEntry struct {
	text  string
	times int
}

// noteProblems logs the problems the screen shows now: the status bar's
// error, a failed list or timeline load, a failing cache.
func (m *Model) noteProblems() {
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	status := ""
	if m.statusErr {
		status = m.status
	}
	m.log.add("status", status)
	m.log.add("list", prefixed("conversation list: ", errText(m.list.err)))
	if m.tl != nil {
		m.log.add("timeline", prefixed(m.tl.cid+": ", errText(m.tl.err)))
	}
	if m.e.st != nil {
		m.log.add("cache", prefixed("cache failing, reading the store: ", errText(m.e.st.Stats().CacheError)))
	}
	m.log.add("connect", prefixed("could not connect to "+m.conn.to+": ", errText(m.conn.err)))
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

// logBox is the message log overlay: the log, newest at the bottom,
// scrolled by whole entries.
type logBox struct {
	e             *common
	log           *msgLog
	scroll        int // entries hidden below the bottom of the box
	width, height int
	closed        bool
}

func (b *logBox) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := b.e.keys
	switch {
	case key.Matches(k, keys.Back, keys.MessageLog, keys.Quit):
		b.closed = true
	case key.Matches(k, keys.Up):
		b.scroll++
	case key.Matches(k, keys.Down):
		b.scroll--
	case key.Matches(k, keys.PageUp):
		b.scroll += 10
	case key.Matches(k, keys.PageDown):
		b.scroll -= 10
	}
	b.clamp()
	return nil
}

func (b *logBox) clamp() { b.scroll = max(0, min(b.scroll, len(b.log.entries)-1)) }

// SetSize takes the screen's width and the height of the panes it floats over.
func (b *logBox) SetSize(width, height int) {
	b.width, b.height = width, height
	b.clamp()
}

// View is the log in a box as wide as the screen allows, each entry
// wrapped in full.
func (b *logBox) View() string {
	th := b.e.theme
	w := max(20, b.width-6)
	var lines []string
	if len(b.log.entries) == 0 {
		lines = append(lines, th.Muted.Render("no warnings or errors so far"))
	}
	end := len(b.log.entries) - b.scroll
	for i, e := range b.log.entries[:max(0, end)] {
		text := fmt.Sprintf("%d. %s", i+1, e.text)
		if e.times > 1 {
			text += fmt.Sprintf(" (%d times)", e.times)
		}
		for j, l := range wrapWords(text, w-3) { // room for the indent
			if j > 0 {
				l = "   " + l
			}
			lines = append(lines, th.Error.Render(l))
		}
	}
	room := max(1, b.height-6)
	if len(lines) > room {
		lines = lines[len(lines)-room:]
	}
	title := th.Title.Render(fmt.Sprintf("Messages (%d)", len(b.log.entries)))
	keys := b.e.keys
	note := th.Muted.Render(projection.Truncate(fmt.Sprintf("%s %s scroll · %s or %s to close",
		keys.Up.Help().Key, keys.Down.Help().Key, keys.MessageLog.Help().Key, keys.Back.Help().Key), w))
	body := append([]string{title, ""}, lines...)
	body = append(body, "", note)
	return th.Dialog.Width(w + 2).Render(strings.Join(body, "\n"))
}

func (b *logBox) ShortHelp() []key.Binding {
	keys := b.e.keys
	return []key.Binding{keys.Up, keys.Down, joined("close", keys.MessageLog, keys.Back)}
}

func (b *logBox) FullHelp() [][]key.Binding { return [][]key.Binding{b.ShortHelp()} }
