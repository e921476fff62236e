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
	scroll  int               // entries hidden below the bottom of the box
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

func (m *Model) msgLogKey(k tea.KeyMsg) {
	keys := m.e.keys
	switch {
	case key.Matches(k, keys.Back, keys.MessageLog, keys.Quit):
		m.overlay = ovNone
	case key.Matches(k, keys.Up):
		m.log.scroll++
	case key.Matches(k, keys.Down):
		m.log.scroll = max(0, m.log.scroll-1)
	case key.Matches(k, keys.PageUp):
		m.log.scroll += 10
	case key.Matches(k, keys.PageDown):
		m.log.scroll = max(0, m.log.scroll-10)
	}
	m.log.scroll = min(m.log.scroll, max(0, len(m.log.entries)-1))
}

// msgLogView is the log in a box as wide as the screen allows, newest at
// the bottom, each entry wrapped in full.
func (m *Model) msgLogView(h int) string {
	th := m.e.theme
	w := max(20, m.width-6)
	var lines []string
	if len(m.log.entries) == 0 {
		lines = append(lines, th.Muted.Render("no warnings or errors so far"))
	}
	end := len(m.log.entries) - m.log.scroll
	for i, e := range m.log.entries[:max(0, end)] {
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
	room := max(1, h-6)
	if len(lines) > room {
		lines = lines[len(lines)-room:]
	}
	title := th.Title.Render(fmt.Sprintf("Messages (%d)", len(m.log.entries)))
	note := th.Muted.Render(projection.Truncate(fmt.Sprintf("%s %s scroll · %s or %s to close",
		m.e.keys.Up.Help().Key, m.e.keys.Down.Help().Key, m.e.keys.MessageLog.Help().Key, m.e.keys.Back.Help().Key), w))
	body := append([]string{title, ""}, lines...)
	body = append(body, "", note)
	return th.Dialog.Width(w + 2).Render(strings.Join(body, "\n"))
}
