package ui

import (
	"fmt"

	"github.com/charmbracelet/lipgloss"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

// convItem is one row of the conversation list.
type convItem struct {
	sum     store.ConversationSummary
	name    string // peer nickname, group name, or an ID
	peer    string // the other user of a single chat
	last    *store.StoredSlot
	lastDoc string
	// lastQuoted is the slot last quotes when it came in the same bucket read
	// (rule 5 for the preview); nil otherwise.
	lastQuoted *store.StoredSlot
}

// convList is the left pane: the conversations of one owner.
type convList struct {
	owner   string
	names   map[string]string // nicknames of the owner and the peers
	req     reqID             // the load in flight or last answered (reqID)
	loading bool
	err     error
	// fromMessages: no conversation documents for owner; the items were
	// found in the messages (every group, the single chats naming owner).
	fromMessages bool
	items        []convItem
	itemsFor     string // the owner items were loaded for: their counts are no one else's
	filter       string
	shown        []int // indexes into items that pass the filter
	cursor       int   // index into shown
	offset       int
	firstRowLine int // the line of the view the first shown row starts on (mouse clicks)
}

func (l *convList) setItems(items []convItem) {
	var keep string
	if it := l.selected(); it != nil {
		keep = it.sum.ConversationID
	}
	l.items = items
	l.applyFilter()
	for i, idx := range l.shown {
		if l.items[idx].sum.ConversationID == keep {
			l.cursor = i
		}
	}
}

func (l *convList) setFilter(f string) {
	l.filter = f
	l.cursor, l.offset = 0, 0
	l.applyFilter()
}

func (l *convList) applyFilter() {
	l.shown = fuzzyFilter(l.filter, len(l.items), func(i int) []string {
		return []string{l.items[i].name, l.items[i].sum.ConversationID}
	})
	l.cursor = min(l.cursor, max(0, len(l.shown)-1))
}

func (l *convList) selected() *convItem {
	if l.cursor < 0 || l.cursor >= len(l.shown) {
		return nil
	}
	return &l.items[l.shown[l.cursor]]
}

func (l *convList) move(delta int) {
	l.cursor = max(0, min(len(l.shown)-1, l.cursor+delta))
}

// typeMarker tells the kind of a conversation at a glance.
func typeMarker(cid string) string {
	switch store.ConversationTypeOf(cid) {
	case store.SessionSingle:
		return "@"
	case store.SessionGroup, store.SessionWriteGroup:
		return "#"
	case store.SessionNotification:
		return "!"
	}
	return "?"
}

// view draws the list inside width x height cells (borders excluded).
func (l *convList) view(e *env, width, height int) string {
	t := e.theme
	title := t.Title.Render(projection.Truncate("Conversations of "+projection.SingleLine(l.owner), width))
	lines := []string{title}
	switch {
	case l.err != nil:
		lines = append(lines, t.Error.Render(projection.Truncate("load failed: "+projection.SingleLine(l.err.Error()), width)),
			t.Muted.Render(fmt.Sprintf("press %s to retry", e.keys.Retry.Help().Key)))
	case l.loading && len(l.items) == 0:
		lines = append(lines, t.Muted.Render("loading…"))
	case l.loading && l.itemsFor != l.owner:
		lines = append(lines, t.Muted.Render(projection.Truncate("loading "+projection.SingleLine(l.owner)+"'s conversations…", width)))
	case len(l.shown) == 0 && l.filter != "":
		lines = append(lines, t.Muted.Render("no match for "+projection.Truncate(projection.SingleLine(l.filter), width-13)))
	case len(l.items) == 0:
		lines = append(lines, t.Muted.Render("no conversations"))
	}
	if l.fromMessages && len(l.items) > 0 && l.err == nil {
		lines = append(lines, t.Warn.Render(projection.Truncate("no conversation records: every group listed", width)))
	}
	if l.filter != "" {
		lines = append(lines, t.Accent.Render(projection.Truncate("filter: "+projection.SingleLine(l.filter), width)))
	}
	rows := max(1, (height-len(lines))/2) // two lines per conversation
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+rows {
		l.offset = l.cursor - rows + 1
	}
	l.firstRowLine = len(lines)
	for i := l.offset; i < len(l.shown) && i < l.offset+rows; i++ {
		lines = append(lines, l.row(e, &l.items[l.shown[i]], i == l.cursor, width)...)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return lipgloss.JoinVertical(lipgloss.Left, lines[:height]...)
}

func (l *convList) row(e *env, it *convItem, selected bool, width int) []string {
	t := e.theme
	unread := ""
	if n := it.sum.Unread(); n > 0 && l.itemsFor == l.owner {
		unread = fmt.Sprintf(" (%d)", n)
	}
	marker := "  "
	if selected {
		marker = "▸ "
	}
	head := marker + typeMarker(it.sum.ConversationID) + " " + projection.SingleLine(it.name)
	head = projection.Truncate(head, width-projection.Width(unread)) + unread
	preview := "    "
	if it.last != nil {
		// A quote of anything but lastQuoted stays unresolved: the preview
		// shows it by seq, never its stored text (see projection.View).
		quoted := func(seq int64) (store.StoredSlot, bool) {
			if it.lastQuoted != nil && it.lastQuoted.Seq == seq {
				return *it.lastQuoted, true
			}
			return store.StoredSlot{}, false
		}
		m := projection.View(*it.last, it.lastDoc, l.owner,
			projection.Conv{ID: it.sum.ConversationID, SessionType: store.ConversationTypeOf(it.sum.ConversationID)}, quoted)
		preview += projection.Summary(m)
	}
	preview = projection.Truncate(preview, width)
	style := t.Text
	if selected {
		style = t.Selected
	}
	return []string{style.Render(padRight(head, width)), t.Muted.Render(preview)}
}
