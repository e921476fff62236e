package list

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
)

// The owner's notification conversations (n_*), a section of their own
// below the chats: the server pulls them beside the chats and the app
// applies them to the chats, never listing them (store.NotificationsOf).
// They are read after the chats, and drawn under a header row two lines
// high, like a row, that the cursor passes over.

// notices are the section's rows and the read that fills them.
type notices struct {
	items []Item
	owner string // whose they are
	req   common.ReqID
	err   error
}

type noticesLoadedMsg struct {
	req   common.ReqID
	owner string
	items []Item
	err   error
}

// loadNotices reads the owner's notification conversations, named by the
// chat each goes with (chats: the list's rows, by conversation ID).
func (l *Model) loadNotices() tea.Cmd {
	l.notes.req = l.e.NewReq()
	e, req, owner := l.e, l.notes.req, l.owner
	names := map[string]string{}
	chats := make([]store.ConversationSummary, len(l.items))
	for i, it := range l.items {
		names[store.NotificationConversationID(it.Sum.ConversationID)] = it.Name
		chats[i] = it.Sum
	}
	return func() tea.Msg {
		sums, err := e.Store.NotificationsBeside(e.Ctx, owner, chats)
		items := make([]Item, len(sums))
		for i, s := range sums {
			items[i] = Item{Sum: s, Name: s.ConversationID}
			switch chat, ok := names[s.ConversationID]; {
			case s.ConversationID == store.SelfNotificationID(owner):
				items[i].Name += " · " + owner + "'s own"
			case ok:
				items[i].Name += " · " + chat
			}
			if n := s.Window.Newest; n != nil {
				items[i].Preview, items[i].PreviewDoc = n, bucket.DocIDForSeq(s.ConversationID, n.Seq)
			}
		}
		return noticesLoadedMsg{req: req, owner: owner, items: items, err: err}
	}
}

// noticesLoaded takes the section read for the owner shown.
func (l *Model) noticesLoaded(msg noticesLoadedMsg) {
	if msg.req != l.notes.req {
		return // a read for a viewer already left, or asked again since
	}
	keep := ""
	if it := l.Selected(); it != nil {
		keep = it.Sum.ConversationID
	}
	l.notes.items, l.notes.owner, l.notes.err = msg.items, msg.owner, msg.err
	l.applyFilter()
	l.Select(keep)
}

// Notices are the rows of the notification section, unfiltered.
func (l *Model) Notices() []Item { return l.notes.items }

// at is the row of index i of the chats followed by the notices.
func (l *Model) at(i int) *Item {
	if i < len(l.items) {
		return &l.items[i]
	}
	return &l.notes.items[i-len(l.items)]
}

// noticeRows are the notices the filter passes, as indexes after the chats.
func (l *Model) noticeRows() []int {
	if l.notes.owner != l.owner {
		return nil
	}
	rows := common.FuzzyFilter(l.filter, len(l.notes.items), func(i int) []string {
		return []string{l.notes.items[i].Name, l.notes.items[i].Sum.ConversationID}
	})
	for i := range rows {
		rows[i] += len(l.items)
	}
	return rows
}

// firstNotice is the index into shown of the first notice row, len(shown)
// when none is shown (and no header is drawn).
func (l *Model) firstNotice() int {
	for i, idx := range l.shown {
		if idx >= len(l.items) {
			return i
		}
	}
	return len(l.shown)
}

// slots are the two-line places drawn: the shown rows and the header.
func (l *Model) slots() int {
	if l.firstNotice() < len(l.shown) {
		return len(l.shown) + 1
	}
	return len(l.shown)
}

// slotOf is the place row i of shown is drawn in.
func (l *Model) slotOf(i int) int {
	if i >= l.firstNotice() {
		return i + 1
	}
	return i
}

// rowIn is the row of shown drawn in place slot; false for the header.
func (l *Model) rowIn(slot int) (int, bool) {
	switch first := l.firstNotice(); {
	case slot < first:
		return slot, true
	case slot == first:
		return 0, false
	}
	return slot - 1, true
}

// noticeHeader is the section's header row.
func (l *Model) noticeHeader() []string {
	t, width := l.e.Theme, l.width
	return []string{t.Title.Render(projection.Truncate("── Notifications "+repeatRule(width), width)),
		t.Muted.Render(projection.Truncate("  pulled beside the chats; the app applies them, never lists them", width))}
}

func repeatRule(width int) string {
	out := ""
	for range max(0, width-17) {
		out += "─"
	}
	return out
}
