package list

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// Filling the rows of a list read in order: the rows on screen before the
// first draw (names, and their newest buckets whole for the timeline to
// reuse), the others after it, in the background (their names), so a
// list of thousands shows its first screen without waiting for the rest.

// unknownHeight is the pane height assumed for the first screen while the
// terminal has not told its size yet.
const unknownHeight = 60

// onScreen are the indexes of items that the list would draw first were
// it to show them now (the selection kept on open, as setItems keeps it).
func (l *Model) onScreen(items []Item, open string, fromMessages bool) []int {
	c := *l // a copy: the list shown stays as it is until the rows are filled
	c.loading, c.err, c.itemsFor, c.fromMessages = false, nil, c.owner, fromMessages
	c.notes = notices{} // the section is read after the chats: the first screen's rows are chats
	if c.height == 0 {
		c.height = unknownHeight
	}
	c.setItems(items, open)
	c.SetSize(c.width, c.height)
	rows := max(1, (c.height-len(c.header()))/2) // two lines per conversation
	top := min(c.offset, len(c.shown))           // an offset kept from a longer list
	return c.shown[top:min(len(c.shown), top+rows)]
}

// fillScreen names the rows of items at screen and the owner, and reads
// the newest buckets of those rows whole where the order's read did not
// (one find), for their previews and for the timeline to reuse: the reads
// before the first draw. The other rows stay pending.
func fillScreen(e *common.Common, req common.ReqID, ordered listOrderedMsg, screen []int) tea.Cmd {
	return func() tea.Msg {
		owner, items, r := ordered.owner, ordered.items, ordered.reuse
		fail := func(err error) tea.Msg { return listLoadedMsg{req: req, owner: owner, err: err} }
		userIDs, groupIDs := namesWanted(items, screen, owner)
		users, err := namesOf(userIDs, r.names, func(ids []string) (map[string]string, error) { return e.Store.UserNames(e.Ctx, ids) })
		if err != nil {
			return fail(err)
		}
		groups, err := namesOf(groupIDs, r.groups, func(ids []string) (map[string]string, error) { return e.Store.GroupNames(e.Ctx, ids) })
		if err != nil {
			return fail(err)
		}
		var unread []bucket.Window
		for _, i := range screen {
			if s := items[i].Sum; s.Last == nil && s.Window.MaxSeq > 0 {
				unread = append(unread, s.Window)
			}
		}
		newest := map[string]*bucket.Bucket{}
		if len(unread) > 0 {
			// Previews are a nicety: without them the list still works.
			if bs, err := e.Store.NewestBuckets(e.Ctx, unread); err == nil {
				newest = bs
			}
		}
		// The names known already go along for the rows below the screen.
		for id, n := range r.names {
			if _, ok := users[id]; !ok {
				users[id] = n
			}
		}
		for id, n := range r.groups {
			if _, ok := groups[id]; !ok {
				groups[id] = n
			}
		}
		for _, i := range screen {
			it := &items[i]
			if b := newest[it.Sum.ConversationID]; b != nil {
				it.Sum.Last = b
			}
			fillRow(it, owner, users, groups, true)
		}
		return listLoadedMsg{req: req, owner: owner, items: items, names: users, groups: groups,
			fromMessages: ordered.fromMessages}
	}
}

// RestMsg is the names of the rows the first screen did not show, read
// after it was drawn (req: the list read they belong to).
type RestMsg struct {
	req           common.ReqID
	users, groups map[string]string
	err           error
}

// readRest reads the names of the pending rows that users and groups do
// not hold: two round trips at most, after the first screen.
func readRest(e *common.Common, req common.ReqID, items []Item, owner string, users, groups map[string]string) tea.Cmd {
	var pending []int
	for i := range items {
		if items[i].pending {
			pending = append(pending, i)
		}
	}
	if len(pending) == 0 {
		return nil
	}
	userIDs, groupIDs := namesWanted(items, pending, owner)
	userIDs, groupIDs = unknown(userIDs, users), unknown(groupIDs, groups) // the goroutine shares no map
	return func() tea.Msg {
		u, err := namesOf(userIDs, nil, func(ids []string) (map[string]string, error) { return e.Store.UserNames(e.Ctx, ids) })
		if err != nil {
			return RestMsg{req: req, err: err}
		}
		g, err := namesOf(groupIDs, nil, func(ids []string) (map[string]string, error) { return e.Store.GroupNames(e.Ctx, ids) })
		return RestMsg{req: req, users: u, groups: g, err: err}
	}
}

// restLanded fills the pending rows with the names read (their IDs where
// the read failed) and filters the list again, the selection kept: a name
// that landed now matches the filter.
func (l *Model) restLanded(msg RestMsg) (map[string]string, tea.Cmd) {
	if msg.req != l.req {
		return nil, nil // a list for a viewer already left, or read again since
	}
	var said tea.Cmd
	if msg.err != nil {
		said = l.e.Say("the names of the conversations below the first screen could not be read: "+msg.err.Error(), true)
	}
	if l.names == nil {
		l.names = map[string]string{}
	}
	if l.groups == nil {
		l.groups = map[string]string{}
	}
	for id, n := range msg.users {
		l.names[id] = n
	}
	for id, n := range msg.groups {
		l.groups[id] = n
	}
	for i := range l.items {
		if l.items[i].pending {
			fillRow(&l.items[i], l.owner, l.names, l.groups, i < KeepNewest)
		}
	}
	l.setItems(l.items, "")
	return l.names, said
}

// unknown are the ids that known holds no name for.
func unknown(ids []string, known map[string]string) []string {
	var out []string
	for _, id := range ids {
		if _, ok := known[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

// namesWanted are the user IDs (owner first) and group IDs that name the
// rows of items at rows.
func namesWanted(items []Item, rows []int, owner string) (userIDs, groupIDs []string) {
	userIDs = []string{owner}
	for _, i := range rows {
		if p := items[i].Peer; p != "" {
			userIDs = append(userIDs, p)
		}
		if g := store.GroupOf(items[i].Sum.ConversationID); g != "" {
			groupIDs = append(groupIDs, g)
		}
	}
	return userIDs, groupIDs
}

// fillRow gives a pending row its name and the preview of its newest
// message: from its newest bucket when read whole (Sum.Last, kept for the
// timeline to reuse when keepLast), else the newest message the order's
// read took (Window.Newest). A preview the row holds already that is newer
// (Follow came first) stays.
func fillRow(it *Item, owner string, users, groups map[string]string, keepLast bool) {
	it.pending = false
	it.Name = store.ConversationName(it.Sum.Conversation, owner, users, groups)
	var preview, quoted *bucket.StoredSlot
	doc := ""
	if last := it.Sum.Last; last != nil {
		if seq := last.LastFilledSeq(); seq > 0 && seq <= it.Sum.Window.MaxSeq {
			slot := last.Slots[bucket.SlotIndex(seq)] // a copy: the bucket may go
			preview, doc = &slot, last.DocID
			// A quote of a seq in the same bucket can be checked for
			// free; any other shows by seq only in the preview.
			if q, ok := projection.QuotedBy(slot); ok && bucket.BucketIndex(q) == last.Index {
				s := last.Slots[bucket.SlotIndex(q)]
				quoted = &s
			}
		}
	} else if n := it.Sum.Window.Newest; n != nil {
		preview, doc = n, bucket.DocIDForSeq(it.Sum.ConversationID, n.Seq)
	}
	if preview != nil && (it.Preview == nil || it.Preview.Seq < preview.Seq) {
		it.Preview, it.PreviewDoc, it.PreviewQuoted = preview, doc, quoted
	}
	if !keepLast {
		it.Sum.Last = nil
	}
}
