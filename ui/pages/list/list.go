// Package list is the left pane: the conversations of one owner, with
// their unread counts and a preview of the newest message, filtered as
// typed; and the reads that fill it.
package list

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

// Item is one row of the conversation list.
type Item struct {
	Sum  store.ConversationSummary
	Name string // peer nickname, group name, or an ID
	Peer string // the other user of a single chat
	// Preview is the newest message's slot, stored in bucket PreviewDoc.
	Preview    *bucket.StoredSlot
	PreviewDoc string
	// PreviewQuoted is the slot Preview quotes when it came in the same
	// bucket read (rule 5 for the preview); nil otherwise.
	PreviewQuoted *bucket.StoredSlot
	// pending: read in order but not filled yet (a row below the first
	// screen, its name still to land): Name is its ID, no preview.
	pending bool
}

// Model is the conversations of one owner. Open and Search ask the root
// (Ask) to open a conversation or the filter input.
type Model struct {
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
	items         []Item
	itemsFor      string // the owner items were loaded for: their counts are no one else's
	filter        string
	shown         []int // indexes into items that pass the filter
	cursor        int   // index into shown
	offset        int   // the first shown row drawn
	width, height int
	asked         Ask
	// focused: the keys come here. Only the focused pane draws its cursor
	// as ▸ (the other's is ▹), so which pane moves never rests on colour.
	focused bool
	// usersKnown: a list load found user records, so the user collection
	// is there and a user missing from it is worth a warning.
	usersKnown bool
	ownerLost  string  // why the owner given is to be found again (OwnerLost)
	notes      notices // the notification section, below the chats (notices.go)
}

var _ common.Component = (*Model)(nil)

// New is owner's list, not read yet ("" when the owner is to be found:
// FindOwner).
func New(e *common.Common, owner string) Model { return Model{e: e, owner: owner} }

// Owner is whose conversations the list shows.
func (l *Model) Owner() string { return l.owner }

// Err is why the last read failed, nil when it did not.
func (l *Model) Err() error { return l.err }

// Loading reports a read under way.
func (l *Model) Loading() bool { return l.loading }

// Filter is what the list is filtered by ("": nothing).
func (l *Model) Filter() string { return l.filter }

// Items are the conversations read, in the list's order, filtered or not.
func (l *Model) Items() []Item { return l.items }

// Names are the nicknames of the owner and the peers, by user ID.
func (l *Model) Names() map[string]string { return l.names }

// SetFocused tells the list the keys come to it.
func (l *Model) SetFocused(focused bool) { l.focused = focused }

// Ask is what the list asks of the root after a key.
type Ask int

const (
	AskNothing Ask = iota
	AskOpen        // open the selected conversation
	AskFilter      // open the filter input
)

// Update moves the cursor, clears the filter, or asks to open the selected
// conversation or the filter input.
func (l *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := l.e.Keys
	page := max(1, (l.height-1)/2) // two lines a conversation
	switch {
	case key.Matches(k, keys.Up):
		l.Move(-1)
	case key.Matches(k, keys.Down):
		l.Move(1)
	case key.Matches(k, keys.PageUp):
		l.Move(-page)
	case key.Matches(k, keys.PageDown):
		l.Move(page)
	case key.Matches(k, keys.Top):
		l.Move(-len(l.shown))
	case key.Matches(k, keys.Bottom):
		l.Move(len(l.shown))
	case key.Matches(k, keys.Open):
		l.asked = AskOpen
	case key.Matches(k, keys.Search):
		l.asked = AskFilter
	case key.Matches(k, keys.Back):
		l.SetFilter("")
	}
	return nil
}

// Ask returns what the last key asked of the root, once.
func (l *Model) Ask() Ask {
	a := l.asked
	l.asked = AskNothing
	return a
}

// SetSize takes the cells inside the pane's border and keeps the cursor's
// row on screen.
func (l *Model) SetSize(width, height int) {
	l.width, l.height = width, height
	rows := max(1, (height-len(l.header()))/2) // two lines per conversation
	places := l.places()
	at := places.of(l.cursor)
	if l.cursor == places.first && at > 0 {
		at-- // the first notice shows its section's header
	}
	if at < l.offset {
		l.offset = at
	}
	if at = places.of(l.cursor); at >= l.offset+rows {
		l.offset = at - rows + 1
	}
}

func (l *Model) ShortHelp() []key.Binding { return l.e.Keys.ListHelp() }

func (l *Model) FullHelp() [][]key.Binding { return [][]key.Binding{l.ShortHelp()} }

// setItems takes a new list, the selection kept on the conversation it was
// on, or on open (the conversation the timeline shows) when not "".
func (l *Model) setItems(items []Item, open string) {
	var keep string
	if it := l.Selected(); it != nil {
		keep = it.Sum.ConversationID
	}
	if open != "" {
		keep = open
	}
	l.items = items
	l.applyFilter()
	for i, idx := range l.shown {
		if l.at(idx).Sum.ConversationID == keep {
			l.cursor = i
		}
	}
}

// Select puts the cursor on cid when the list shows it.
func (l *Model) Select(cid string) {
	for i, idx := range l.shown {
		if l.at(idx).Sum.ConversationID == cid {
			l.cursor = i
		}
	}
}

// SetFilter shows only the conversations f matches.
func (l *Model) SetFilter(f string) {
	l.filter = f
	l.cursor, l.offset = 0, 0
	l.applyFilter()
}

func (l *Model) applyFilter() {
	l.shown = common.FuzzyFilter(l.filter, len(l.items), func(i int) []string {
		return []string{l.items[i].Name, l.items[i].Sum.ConversationID}
	})
	l.shown = append(l.shown, l.notes.rows(l.owner, l.filter, len(l.items))...)
	l.cursor = min(l.cursor, max(0, len(l.shown)-1))
}

// Selected is the conversation under the cursor, nil when none.
func (l *Model) Selected() *Item {
	if l.cursor < 0 || l.cursor >= len(l.shown) {
		return nil
	}
	return l.at(l.shown[l.cursor])
}

// Move moves the cursor by delta rows.
func (l *Model) Move(delta int) {
	l.cursor = max(0, min(len(l.shown)-1, l.cursor+delta))
}

// RowAt selects the conversation drawn on line (0: the first inside the
// pane's border) and reports whether there is one.
func (l *Model) RowAt(line int) bool {
	first := len(l.header()) // the line the first row starts on
	if line < first {
		return false
	}
	i, ok := l.places().row(l.offset + (line-first)/2) // two lines per conversation
	if !ok || i >= len(l.shown) {
		return false
	}
	l.cursor = i
	return true
}

// header is the lines above the rows: the title, what the list is waiting
// for or why it is empty, the filter.
func (l *Model) header() []string {
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
func (l *Model) View() string {
	lines := l.header()
	rows := max(1, (l.height-len(lines))/2) // two lines per conversation
	look := rowLook{e: l.e, width: l.width, owner: l.owner, counted: l.itemsFor == l.owner, focused: l.focused}
	places := l.places()
	for slot := l.offset; slot < places.count() && slot < l.offset+rows; slot++ {
		if i, ok := places.row(slot); ok {
			lines = append(lines, look.draw(l.at(l.shown[i]), i == l.cursor)...)
		} else {
			lines = append(lines, noticeHeader(l.e.Theme, l.width)...)
		}
	}
	for len(lines) < l.height {
		lines = append(lines, "")
	}
	return lipgloss.JoinVertical(lipgloss.Left, lines[:l.height]...)
}
