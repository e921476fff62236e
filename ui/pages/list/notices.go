package list

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/themes"
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

// load reads owner's notification conversations, named by the chat each
// goes with (chats: the list's rows).
func (n *notices) load(e *common.Common, owner string, chats []Item) tea.Cmd {
	n.req = e.NewReq()
	req := n.req
	names := map[string]string{}
	sums := make([]store.ConversationSummary, len(chats))
	for i, it := range chats {
		names[store.NotificationConversationID(it.Sum.ConversationID)] = it.Name
		sums[i] = it.Sum
	}
	return func() tea.Msg {
		found, err := e.Store.NotificationsBeside(e.Ctx, owner, sums)
		items := make([]Item, len(found))
		for i, s := range found {
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

// landed takes the section read, when it is the read asked for last (not
// one for a viewer already left).
func (n *notices) landed(msg noticesLoadedMsg) bool {
	if msg.req != n.req {
		return false
	}
	n.items, n.owner, n.err = msg.items, msg.owner, msg.err
	return true
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

// rows are owner's notices filter passes, as indexes after the chats
// (none when the section read is another owner's).
func (n *notices) rows(owner, filter string, chats int) []int {
	if n.owner != owner {
		return nil
	}
	rows := common.FuzzyFilter(filter, len(n.items), func(i int) []string {
		return []string{n.items[i].Name, n.items[i].Sum.ConversationID}
	})
	for i := range rows {
		rows[i] += chats
	}
	return rows
}

// places are the two-line places the rows shown are drawn in: the chats,
// then the section's header, then the notices.
type places struct {
	shown int // rows shown
	first int // the index into shown of the first notice row, shown when none (and no header is drawn)
}

// places lays out the rows shown.
func (l *Model) places() places {
	p := places{shown: len(l.shown), first: len(l.shown)}
	for i, idx := range l.shown {
		if idx >= len(l.items) {
			p.first = i
			break
		}
	}
	return p
}

// count is how many places are drawn: the shown rows and the header.
func (p places) count() int {
	if p.first < p.shown {
		return p.shown + 1
	}
	return p.shown
}

// of is the place row i of shown is drawn in.
func (p places) of(i int) int {
	if i >= p.first {
		return i + 1
	}
	return i
}

// row is the row of shown drawn in place slot; false for the header.
func (p places) row(slot int) (int, bool) {
	switch {
	case slot < p.first:
		return slot, true
	case slot == p.first:
		return 0, false
	}
	return slot - 1, true
}

// noticeHeader is the section's header row.
func noticeHeader(t themes.Theme, width int) []string {
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
