package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// Below the panes: the status bar and a footer (input, message or hints).
const chromeLines = 2

// narrow is the width under which only the focused pane is drawn.
const narrow = 70

func (m *Model) bodyHeight() int { return max(3, m.height-chromeLines) }

// View draws the whole screen at exactly m.width x m.height.
func (m *Model) View() string {
	if m.width == 0 || m.height == 0 {
		return ""
	}
	h := m.bodyHeight()
	var body string
	// Dialogs float over the panes: the message being revoked, or the
	// timeline a viewer is picked for, stays in sight.
	switch c := m.overlayComponent(); {
	case c == nil:
		body = m.panes(h)
	case m.overlay == ovInspector: // covers the panes whole
		body = c.View()
	default:
		body = floatOver(m.panes(h), c.View(), m.width, h)
	}
	return lipgloss.JoinVertical(lipgloss.Left, body, m.statusBar(), m.footer())
}

// paneSizes is where panes draws: the cells inside each pane's border.
// One pane, the focused one, on a narrow screen, with no conversation open
// or while comparing (which takes the full width); else the list left of
// the timeline.
type paneSizes struct {
	single            bool
	listW, tlW, inner int
}

func (m *Model) paneSizes() paneSizes {
	inner := m.bodyHeight() - 2
	comparing := m.tl != nil && m.tl.Compare().With() != "" && m.focus == paneTimeline
	if m.width < narrow || m.tl == nil || comparing {
		return paneSizes{single: true, listW: m.width - 2, tlW: m.width - 2, inner: inner}
	}
	listW := max(24, min(40, m.width/3)) - 2
	return paneSizes{listW: listW, tlW: m.width - listW - 4, inner: inner}
}

func (m *Model) panes(h int) string {
	th := m.e.Theme
	frame := func(focused bool) lipgloss.Style {
		if focused {
			return th.FocusedPane
		}
		return th.Pane
	}
	inner := h - 2
	if m.conn.waiting {
		return frame(true).Render(common.FitBlock(m.connectingPane(m.width-2), m.width-2, inner))
	}
	ps := m.paneSizes()
	if ps.single {
		if m.tl != nil && m.focus == paneTimeline {
			return frame(true).Render(common.FitBlock(m.tl.View(), ps.tlW, inner))
		}
		return frame(true).Render(common.FitBlock(m.list.View(), ps.listW, inner))
	}
	left := frame(m.focus == paneList).Render(common.FitBlock(m.list.View(), ps.listW, inner))
	right := frame(m.focus == paneTimeline).Render(common.FitBlock(m.tl.View(), ps.tlW, inner))
	return lipgloss.JoinHorizontal(lipgloss.Top, left, right)
}

// statusBar: backend, viewer, conversation, position, round trips, warnings.
func (m *Model) statusBar() string {
	th := m.e.Theme
	if m.e.Store == nil { // not connected yet
		line := projection.SingleLine("as " + m.viewer() + " │ " + m.connectingLine())
		return th.StatusBar.Width(m.width).MaxWidth(m.width).Render(projection.Truncate(line, m.width))
	}
	stats := m.e.Store.Stats()
	// Most telling first: a narrow terminal cuts from the right.
	parts := []string{"as " + m.viewer()}
	if c := m.e.Store.Context(); c != "" {
		parts = []string{"context " + c, parts[0]} // which deployment, before all
	}
	if sw := m.switching; sw != nil {
		parts = append([]string{"switching to " + sw.name + "…"}, parts...) // until it answers
	}
	if m.e.ReadOnly {
		parts = append(parts, "read-only") // before anything a narrow bar may cut
	}
	if t := m.tl; t != nil {
		parts = append(parts, t.ID())
		if !t.Viewers().Empty() {
			parts = append(parts, fmt.Sprintf("seq %d/%d · bucket %d", t.Cursor(), t.MaxSeq(), bucket.BucketIndex(t.Cursor())))
		}
		parts = append(parts, "times "+common.ZoneLabel(m.e.Loc, m.e.Now())) // the one place the zone is said
		if on, from := t.Follow().On(); on {
			f := "following"
			if from != "" {
				f += " (" + from + ")" // where the new max seq is read
			}
			parts = append(parts, f)
		}
	}
	parts = append(parts, fmt.Sprintf("%d round trips", stats.RoundTrips))
	if stats.CacheRoundTrips > 0 {
		parts = append(parts, fmt.Sprintf("cache %d hits %d misses in %d trips",
			stats.CacheHits, stats.CacheMisses, stats.CacheRoundTrips))
	}
	parts = append(parts, m.e.Store.Describe())
	if m.e.Store.SlotReads() == store.SlotsWholeBucket {
		parts = append(parts, "single messages read as whole buckets (no $slice)")
	}
	line := projection.SingleLine(strings.Join(parts, " │ "))
	if stats.CacheError != nil {
		// The warning gets at most half the bar: who is viewing what must
		// stay readable while Redis is down (reads go to the store).
		warn := projection.SingleLine(" │ ⚠ cache failing, reading the store: " + stats.CacheError.Error())
		warn = projection.Truncate(warn, m.width/2)
		line = projection.Truncate(line, max(0, m.width-projection.Width(warn))) + warn
	}
	return th.StatusBar.Width(m.width).MaxWidth(m.width).Render(projection.Truncate(line, m.width))
}

// footer is the input being typed, else the last status message, else the
// search progress, else the key hints.
func (m *Model) footer() string {
	th := m.e.Theme
	switch {
	case m.input.Open():
		return m.input.View()
	case m.status != "":
		style := th.Accent
		if m.statusErr {
			style = th.Error
		}
		line := projection.SingleLine(m.status)
		if m.statusErr && projection.Width(line) > m.width {
			// Cut: say where the whole text is.
			more := " · " + m.e.Keys.MessageLog.Help().Key + ": full text"
			line = projection.Truncate(line, max(0, m.width-projection.Width(more))) + more
		}
		return style.Render(projection.Truncate(line, m.width))
	case m.tl != nil && m.tl.Search().Query() != "" && m.focus == paneTimeline:
		return th.Accent.Render(projection.Truncate(m.tl.Search().Progress(), m.width))
	case m.tl != nil && m.tl.Compare().With() != "" && m.focus == paneTimeline && m.overlay == ovNone:
		return th.Accent.Render(projection.Truncate(m.tl.Compare().Progress(), m.width))
	}
	if m.overlay != ovNone {
		return m.keyHints(m.hints(), m.width)
	}
	// The keys of the moment, cut to fit, and always how to get the rest.
	sep := m.help.Styles.ShortSeparator.Render(m.help.ShortSeparator)
	tail := m.help.ShortHelpView([]key.Binding{m.e.Keys.Help, m.e.Keys.Quit})
	room := m.width - ansi.StringWidth(sep) - ansi.StringWidth(tail)
	if room < 10 {
		return ansi.Truncate(tail, m.width, "…")
	}
	return m.keyHints(m.hints(), room) + sep + tail
}

// keyHints is the short help of bs cut at a whole key to fit width, ending
// in "…" when cut. (help.ShortHelpView overflows when even "…" does not fit.)
func (m *Model) keyHints(bs []key.Binding, width int) string {
	for n := len(bs); n > 0; n-- {
		s := m.help.ShortHelpView(bs[:n])
		if n < len(bs) {
			s += " …"
		}
		if ansi.StringWidth(s) <= width {
			return s
		}
	}
	return ansi.Truncate(m.help.ShortHelpView(bs), width, "…")
}

// hints are the keys that do something where the user is now.
func (m *Model) hints() []key.Binding {
	if c := m.overlayComponent(); c != nil {
		return c.ShortHelp()
	}
	if m.conn.waiting {
		return []key.Binding{m.e.Keys.MessageLog}
	}
	if m.focus == paneTimeline && m.tl != nil {
		return m.tl.ShortHelp()
	}
	return m.list.ShortHelp()
}
