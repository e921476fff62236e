package ui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// convItem is one row of the conversation list.
type convItem struct {
	sum     store.ConversationSummary
	name    string // peer nickname, group name, or an ID
	peer    string // the other user of a single chat
	last    *bucket.StoredSlot
	lastDoc string
	// lastQuoted is the slot last quotes when it came in the same bucket read
	// (rule 5 for the preview); nil otherwise.
	lastQuoted *bucket.StoredSlot
}

// convList is the left pane: the conversations of one owner. Open and
// Search ask the root (asked) to open a conversation or the filter input.
type convList struct {
	e       *common.Common
	owner   string
	names   map[string]string // nicknames of the owner and the peers
	groups  map[string]string // names of the groups listed
	req     common.ReqID      // the load in flight or last answered (common.ReqID)
	loading bool
	err     error
	// fromMessages: no conversation documents for owner; the items were
	// found in the messages (every group, the single chats naming owner).
	fromMessages  bool
	items         []convItem
	itemsFor      string // the owner items were loaded for: their counts are no one else's
	filter        string
	shown         []int // indexes into items that pass the filter
	cursor        int   // index into shown
	offset        int   // the first shown row drawn
	width, height int
	asked         listAsk
	// focused: the keys come here. Only the focused pane draws its cursor
	// as ▸ (the other's is ▹), so which pane moves never rests on colour.
	focused bool
}

var _ common.Component = (*convList)(nil)

// listAsk is what the list asks of the root after a key.
type listAsk int

const (
	askNothing listAsk = iota
	askOpen            // open the selected conversation
	askFilter          // open the filter input
)

// Update moves the cursor, clears the filter, or asks to open the selected
// conversation or the filter input.
func (l *convList) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := l.e.Keys
	page := max(1, (l.height-1)/2) // two lines a conversation
	switch {
	case key.Matches(k, keys.Up):
		l.move(-1)
	case key.Matches(k, keys.Down):
		l.move(1)
	case key.Matches(k, keys.PageUp):
		l.move(-page)
	case key.Matches(k, keys.PageDown):
		l.move(page)
	case key.Matches(k, keys.Top):
		l.move(-len(l.items))
	case key.Matches(k, keys.Bottom):
		l.move(len(l.items))
	case key.Matches(k, keys.Open):
		l.asked = askOpen
	case key.Matches(k, keys.Search):
		l.asked = askFilter
	case key.Matches(k, keys.Back):
		l.setFilter("")
	}
	return nil
}

// ask returns what the last key asked of the root, once.
func (l *convList) ask() listAsk {
	a := l.asked
	l.asked = askNothing
	return a
}

// SetSize takes the cells inside the pane's border and keeps the cursor's
// row on screen.
func (l *convList) SetSize(width, height int) {
	l.width, l.height = width, height
	rows := max(1, (height-len(l.header()))/2) // two lines per conversation
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+rows {
		l.offset = l.cursor - rows + 1
	}
}

func (l *convList) ShortHelp() []key.Binding { return l.e.Keys.ListHelp() }

func (l *convList) FullHelp() [][]key.Binding { return [][]key.Binding{l.ShortHelp()} }

// setItems takes a new list, the selection kept on the conversation it was
// on, or on open (the conversation the timeline shows) when not "".
func (l *convList) setItems(items []convItem, open string) {
	var keep string
	if it := l.selected(); it != nil {
		keep = it.sum.ConversationID
	}
	if open != "" {
		keep = open
	}
	l.items = items
	l.applyFilter()
	for i, idx := range l.shown {
		if l.items[idx].sum.ConversationID == keep {
			l.cursor = i
		}
	}
}

// selectConversation puts the cursor on cid when the list shows it.
func (l *convList) selectConversation(cid string) {
	for i, idx := range l.shown {
		if l.items[idx].sum.ConversationID == cid {
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
	l.shown = common.FuzzyFilter(l.filter, len(l.items), func(i int) []string {
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
	case bucket.SessionSingle:
		return "@"
	case bucket.SessionGroup, bucket.SessionWriteGroup:
		return "#"
	case bucket.SessionNotification:
		return "!"
	}
	return "?"
}

// header is the lines above the rows: the title, what the list is waiting
// for or why it is empty, the filter.
func (l *convList) header() []string {
	t, width := l.e.Theme, l.width
	title := t.Title.Render(projection.Truncate("Conversations of "+projection.SingleLine(l.owner), width))
	lines := []string{title}
	switch {
	case l.err != nil:
		lines = append(lines, t.Error.Render(projection.Truncate("load failed: "+projection.SingleLine(l.err.Error()), width)),
			t.Muted.Render(fmt.Sprintf("press %s to retry", l.e.Keys.Retry.Help().Key)))
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
	return lines
}

// View draws the list inside the size it was given (borders excluded).
func (l *convList) View() string {
	lines := l.header()
	rows := max(1, (l.height-len(lines))/2) // two lines per conversation
	for i := l.offset; i < len(l.shown) && i < l.offset+rows; i++ {
		lines = append(lines, l.row(&l.items[l.shown[i]], i == l.cursor)...)
	}
	for len(lines) < l.height {
		lines = append(lines, "")
	}
	return lipgloss.JoinVertical(lipgloss.Left, lines[:l.height]...)
}

func (l *convList) row(it *convItem, selected bool) []string {
	t, width := l.e.Theme, l.width
	unread := ""
	if n := it.sum.Unread(); n > 0 && l.itemsFor == l.owner {
		unread = fmt.Sprintf(" (%d)", n)
	}
	marker := "  "
	switch {
	case selected && l.focused:
		marker = "▸ "
	case selected:
		marker = "▹ " // the keys go to the other pane
	}
	head := marker + typeMarker(it.sum.ConversationID) + " " + projection.SingleLine(it.name)
	head = projection.Truncate(head, width-projection.Width(unread)) + unread
	preview := "    "
	if it.last != nil {
		// A quote of anything but lastQuoted stays unresolved: the preview
		// shows it by seq, never its stored text (see projection.View).
		quoted := func(seq int64) (bucket.StoredSlot, bool) {
			if it.lastQuoted != nil && it.lastQuoted.Seq == seq {
				return *it.lastQuoted, true
			}
			return bucket.StoredSlot{}, false
		}
		m := projection.View(*it.last, it.lastDoc, l.owner,
			projection.Conv{ID: it.sum.ConversationID, SessionType: store.ConversationTypeOf(it.sum.ConversationID)}, quoted)
		preview += projection.Summary(m)
	}
	preview = projection.Truncate(preview, width)
	style := t.Text
	if selected && l.focused {
		style = t.Selected
	}
	return []string{style.Render(common.PadRight(head, width)), t.Muted.Render(preview)}
}
