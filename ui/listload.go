package ui

import (
	"maps"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// Reading the conversation list: whole, or after a switch of viewer,
// reusing what the list shown already holds.

// keepNewest bounds the newest buckets the list reads whole and holds for
// the timeline to reuse (the first rows, in list order): a list of
// thousands of conversations reads only the newest slots of the others
// (store.ListOptions.WholeNewest), for their preview (Window.Newest). Opening one beyond it reads its newest
// bucket again, in the same single find as the one before it.
const keepNewest = 64

type listLoadedMsg struct {
	req   reqID
	owner string
	items []convItem
	names map[string]string // nicknames of the owner and the peers
	// groups are the names of the groups listed, by group ID.
	groups map[string]string
	// fromMessages: the owner has no conversation documents, so the items
	// are every group stored and the single chats naming the owner.
	fromMessages bool
	err          error
}

// listReuse is what a list read after a switch of viewer takes from the
// list shown instead of reading it again: the windows of its rows (what
// they hold for everyone: store.ConversationsReusing), the user and group
// names known; and the open conversation's window to bring along (at, for
// the timeline waiting under winReq; nil for none).
type listReuse struct {
	known         map[string]bucket.Window
	names, groups map[string]string
	at            *bucket.Window
	winReq        reqID
}

// viewerReadMsg is the first step of a list read after a switch: the new
// owner's records (store.ReadViewer) and their window of the open
// conversation, which the timeline takes at once; the list goes on from
// the records.
type viewerReadMsg struct {
	req   reqID
	owner string
	recs  *store.ViewerRecords
	reuse listReuse
	err   error
}

func readViewer(e *common, req reqID, owner string, r listReuse) tea.Cmd {
	return func() tea.Msg {
		recs, err := e.st.ReadViewer(e.ctx, owner, r.at)
		return viewerReadMsg{req: req, owner: owner, recs: recs, reuse: r, err: err}
	}
}

// viewerRead gives the timeline the window it waits for, then reads the
// rest of the list from the records (unless another list was asked since).
func (m *Model) viewerRead(msg viewerReadMsg) tea.Cmd {
	var win tea.Cmd
	if msg.reuse.winReq != 0 && m.tl != nil { // whatever becomes of the list
		w := bucket.Window{}
		if msg.err == nil && msg.recs.Window != nil {
			w = *msg.recs.Window
		}
		win = m.windowLoaded(windowLoadedMsg{req: msg.reuse.winReq, viewer: msg.owner, win: w, err: msg.err})
	}
	if msg.req != m.list.req {
		return win // a list for a viewer already left
	}
	if msg.err != nil {
		m.list.loading, m.list.err = false, msg.err
		return win
	}
	return tea.Batch(win, loadListReusing(m.e, msg.req, msg.owner, msg.reuse, msg.recs))
}

// loadList reads owner's conversations in a constant number of round trips
// however many there are: the conversation documents, the windows (seq,
// seq_user, and one find of every newest bucket), the user and group names.
// Past keepNewest conversations, the windows read only each newest
// bucket's last slots, and one more find (after the cache) reads the
// newest buckets of the first keepNewest rows whole, for the timeline to
// reuse. When a cache knew the max seqs, no newest bucket came with the
// windows: that find reads them.
func loadList(e *common, req reqID, owner string) tea.Cmd {
	return loadListReusing(e, req, owner, listReuse{}, nil)
}

// loadListReusing is loadList from the new owner's records read already
// (recs, after a switch of viewer), reading only what r does not hold: the
// seq documents, newest buckets and names of what is new to the list.
func loadListReusing(e *common, req reqID, owner string, r listReuse, recs *store.ViewerRecords) tea.Cmd {
	return func() tea.Msg {
		fail := func(err error) tea.Msg { return listLoadedMsg{req: req, owner: owner, err: err} }
		var sums []store.ConversationSummary
		var err error
		if recs == nil {
			sums, err = e.st.ConversationList(e.ctx, owner, store.ListOptions{WholeNewest: keepNewest})
		} else {
			sums, err = e.st.ConversationsReusing(e.ctx, recs, r.known, store.ListOptions{WholeNewest: keepNewest})
		}
		if err != nil {
			return fail(err)
		}
		items := make([]convItem, len(sums))
		userIDs, groupIDs := []string{owner}, []string(nil)
		var unread []bucket.Window // first rows whose newest bucket was not read
		for i, s := range sums {
			items[i] = convItem{sum: s, peer: store.PeerOf(s.Conversation, owner)}
			if items[i].peer != "" {
				userIDs = append(userIDs, items[i].peer)
			}
			if g := store.GroupOf(s.ConversationID); g != "" {
				groupIDs = append(groupIDs, g)
			}
			if i < keepNewest && s.Last == nil && s.Window.MaxSeq > 0 {
				unread = append(unread, s.Window)
			}
		}
		users, err := namesOf(userIDs, r.names, func(ids []string) (map[string]string, error) { return e.st.UserNames(e.ctx, ids) })
		if err != nil {
			return fail(err)
		}
		groups, err := namesOf(groupIDs, r.groups, func(ids []string) (map[string]string, error) { return e.st.GroupNames(e.ctx, ids) })
		if err != nil {
			return fail(err)
		}
		newest := map[string]*bucket.Bucket{}
		if len(unread) > 0 {
			// Previews are a nicety: without them the list still works.
			if bs, err := e.st.NewestBuckets(e.ctx, unread); err == nil {
				newest = bs
			}
		}
		for i := range items {
			it := &items[i]
			it.name = store.ConversationName(it.sum.Conversation, owner, users, groups)
			last := it.sum.Last
			if last == nil {
				last = newest[it.sum.ConversationID]
			}
			if last != nil {
				if seq := last.LastFilledSeq(); seq > 0 && seq <= it.sum.Window.MaxSeq {
					slot := last.Slots[bucket.SlotIndex(seq)] // a copy: the bucket may go
					it.last, it.lastDoc = &slot, last.DocID
					// A quote of a seq in the same bucket can be checked for
					// free; any other shows by seq only in the preview.
					if q, ok := projection.QuotedBy(slot); ok && bucket.BucketIndex(q) == last.Index {
						quoted := last.Slots[bucket.SlotIndex(q)]
						it.lastQuoted = &quoted
					}
				}
			} else if n := it.sum.Window.Newest; n != nil {
				// Below the first rows: the newest message the list read.
				it.last, it.lastDoc = n, bucket.DocIDForSeq(it.sum.ConversationID, n.Seq)
			}
			it.sum.Last = nil
			if i < keepNewest {
				it.sum.Last = last // for the timeline to reuse
			}
		}
		return listLoadedMsg{req: req, owner: owner, items: items, names: users, groups: groups,
			fromMessages: len(sums) > 0 && sums[0].FromMessages}
	}
}

// namesOf maps ids to names, taking those in known and reading the rest
// with read (one round trip, none when known has them all). An ID the
// store has no name for is asked again: it may have one now.
func namesOf(ids []string, known map[string]string, read func([]string) (map[string]string, error)) (map[string]string, error) {
	out := map[string]string{}
	var missing []string
	for _, id := range ids {
		if n, ok := known[id]; ok {
			out[id] = n
		} else {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	got, err := read(missing)
	if err != nil {
		return nil, err
	}
	for id, n := range got {
		out[id] = n
	}
	return out, nil
}

// reloadListAfterSwitch reads the list of a new owner with what the list
// shown holds (listReuse), and brings along the window the timeline
// waits for under winReq (0: none).
func (m *Model) reloadListAfterSwitch(winReq reqID) tea.Cmd {
	r := listReuse{known: map[string]bucket.Window{}, names: map[string]string{}, groups: m.list.groups, winReq: winReq}
	if m.list.err == nil && !m.list.loading {
		for _, it := range m.list.items {
			r.known[it.sum.ConversationID] = it.sum.Window
		}
	}
	maps.Copy(r.names, m.list.names)
	if t := m.tl; t != nil {
		maps.Copy(r.names, t.names)
		if winReq != 0 {
			base := t.base
			r.at = &base
		}
	}
	m.list.req = m.e.newReq()
	m.list.loading = true
	return readViewer(m.e, m.list.req, m.list.owner, r)
}
