package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/components/lineinput"
	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// bars draws the two lines below the panes: the status bar and the footer
// (the input, a message or the key hints). It holds the help model the
// hints and the help box are drawn with.
type bars struct {
	help help.Model
}

func newBars(theme themes.Theme) bars {
	b := bars{help: help.New()}
	b.help.Styles.ShortKey = theme.Accent
	b.help.Styles.ShortDesc = theme.Muted
	b.help.Styles.FullKey = theme.Accent
	b.help.Styles.FullDesc = theme.Text
	// help's own defaults are colours: the theme's muted style replaces
	// them, so --theme none and NO_COLOR emit none.
	b.help.Styles.ShortSeparator = theme.Muted
	b.help.Styles.FullSeparator = theme.Muted
	b.help.Styles.Ellipsis = theme.Muted
	return b
}

// status is the status bar: backend, viewer, conversation (tl, nil for
// none), position, round trips, warnings.
func (b *bars) status(e *common.Common, width int, viewer string, conn *connection, sw *switching, tl *timeline.Model) string {
	th := e.Theme
	if e.Store == nil { // not connected yet
		line := projection.SingleLine("as " + viewer + " │ " + conn.line())
		return th.StatusBar.Width(width).MaxWidth(width).Render(projection.Truncate(line, width))
	}
	stats := e.Store.Stats()
	// Most telling first: a narrow terminal cuts from the right.
	parts := []string{"as " + viewer}
	if c := e.Store.Context(); c != "" {
		parts = []string{"context " + c, parts[0]} // which deployment, before all
	}
	if sw != nil {
		parts = append([]string{"switching to " + sw.name + "…"}, parts...) // until it answers
	}
	if e.ReadOnly {
		parts = append(parts, "read-only") // before anything a narrow bar may cut
	}
	if t := tl; t != nil {
		if at := t.Moment().Label(); at != "" {
			parts = append(parts, at) // the rows are of then, not now
		}
		parts = append(parts, t.ID())
		if !t.Viewers().Empty() {
			parts = append(parts, fmt.Sprintf("seq %d/%d · bucket %d", t.Cursor(), t.Viewers().MaxSeq(), bucket.BucketIndex(t.Cursor())))
		}
		parts = append(parts, "times "+common.ZoneLabel(e.Loc, e.Now())) // the one place the zone is said
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
	parts = append(parts, e.Store.Describe())
	if e.Store.SlotReads() == store.SlotsWholeBucket {
		parts = append(parts, "single messages read as whole buckets (no $slice)")
	}
	line := projection.SingleLine(strings.Join(parts, " │ "))
	if stats.CacheError != nil {
		// The warning gets at most half the bar: who is viewing what must
		// stay readable while Redis is down (reads go to the store).
		warn := projection.SingleLine(" │ ⚠ cache failing, reading the store: " + stats.CacheError.Error())
		warn = projection.Truncate(warn, width/2)
		line = projection.Truncate(line, max(0, width-projection.Width(warn))) + warn
	}
	return th.StatusBar.Width(width).MaxWidth(width).Render(projection.Truncate(line, width))
}

// footerState is what the footer may show.
type footerState struct {
	input     *lineinput.Model
	status    string
	statusErr bool
	tl        *timeline.Model // the timeline when it has the keys: its search or compare progress
	overlaid  bool            // a dialog or box is over the panes
	hints     []key.Binding   // the keys that do something where the user is now
}

// footer is the input being typed, else the last status message, else the
// search progress, else the key hints.
func (b *bars) footer(e *common.Common, width int, f footerState) string {
	th := e.Theme
	switch {
	case f.input.Open():
		return f.input.View()
	case f.status != "":
		style := th.Accent
		if f.statusErr {
			style = th.Error
		}
		line := projection.SingleLine(f.status)
		if f.statusErr && projection.Width(line) > width {
			// Cut: say where the whole text is.
			more := " · " + e.Keys.MessageLog.Help().Key + ": full text"
			line = projection.Truncate(line, max(0, width-projection.Width(more))) + more
		}
		return style.Render(projection.Truncate(line, width))
	case f.tl != nil && f.tl.Search().Query() != "":
		return th.Accent.Render(projection.Truncate(f.tl.Search().Progress(), width))
	case f.tl != nil && f.tl.Compare().With() != "" && !f.overlaid:
		return th.Accent.Render(projection.Truncate(f.tl.Compare().Progress(), width))
	}
	if f.overlaid {
		return b.keyHints(f.hints, width)
	}
	// The keys of the moment, cut to fit, and always how to get the rest.
	sep := b.help.Styles.ShortSeparator.Render(b.help.ShortSeparator)
	tail := b.help.ShortHelpView([]key.Binding{e.Keys.Help, e.Keys.Quit})
	room := width - ansi.StringWidth(sep) - ansi.StringWidth(tail)
	if room < 10 {
		return ansi.Truncate(tail, width, "…")
	}
	return b.keyHints(f.hints, room) + sep + tail
}

// keyHints is the short help of bs cut at a whole key to fit width, ending
// in "…" when cut. (help.ShortHelpView overflows when even "…" does not fit.)
func (b *bars) keyHints(bs []key.Binding, width int) string {
	for n := len(bs); n > 0; n-- {
		s := b.help.ShortHelpView(bs[:n])
		if n < len(bs) {
			s += " …"
		}
		if ansi.StringWidth(s) <= width {
			return s
		}
	}
	return ansi.Truncate(b.help.ShortHelpView(bs), width, "…")
}
