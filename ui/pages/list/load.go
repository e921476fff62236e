package list

import (
	"maps"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"

	"fmt"
)

// Reading the conversation list: whole, or after a switch of viewer,
// reusing what the list shown already holds.

// KeepNewest bounds the lists whose windows read every newest bucket
// whole, for the timeline to reuse; a list of more conversations reads
// only the newest slots of each (store.ListOptions.WholeNewest), for its
// end and preview (Window.Newest), and the newest buckets of the rows on
// its first screen whole (fillScreen). Opening a row beyond them reads its
// newest bucket again, in the same single find as the one before it.
const KeepNewest = 64

type listLoadedMsg struct {
	req   common.ReqID
	owner string
	items []Item
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
	winReq        common.ReqID
}

// ViewerReadMsg is the first step of a list read after a switch: the new
// owner's records (store.ReadViewer) and their window of the open
// conversation, which the timeline takes at once; the list goes on from
// the records.
type ViewerReadMsg struct {
	req   common.ReqID
	owner string
	recs  *store.ViewerRecords
	reuse listReuse
	err   error
}

func readViewer(e *common.Common, req common.ReqID, owner string, r listReuse) tea.Cmd {
	return func() tea.Msg {
		recs, err := e.Store.ReadViewer(e.Ctx, owner, r.at)
		return ViewerReadMsg{req: req, owner: owner, recs: recs, reuse: r, err: err}
	}
}

// loadList reads owner's conversations in a constant number of round trips
// however many there are. First their order: the conversation documents
// and the windows (seq, seq_user, and one find of every newest bucket),
// each row's end and newest message; past KeepNewest conversations, the
// windows read only each newest bucket's last slots. Then the rows on
// screen (fillScreen): their names, and one more find of their newest
// buckets whole when the windows did not read them, for the timeline to
// reuse; the list is drawn. The names of the other rows land after it
// (readRest).
func loadList(e *common.Common, req common.ReqID, owner string) tea.Cmd {
	return loadListReusing(e, req, owner, listReuse{}, nil)
}

// listOrderedMsg is a list read in order, its rows not filled yet.
type listOrderedMsg struct {
	req          common.ReqID
	owner        string
	items        []Item // pending: their IDs, windows and peers only
	fromMessages bool
	reuse        listReuse
	err          error
}

// loadListReusing is loadList from the new owner's records read already
// (recs, after a switch of viewer), reading only what r does not hold: the
// seq documents, newest buckets and names of what is new to the list.
func loadListReusing(e *common.Common, req common.ReqID, owner string, r listReuse, recs *store.ViewerRecords) tea.Cmd {
	return func() tea.Msg {
		var sums []store.ConversationSummary
		var err error
		if recs == nil {
			sums, err = e.Store.ConversationList(e.Ctx, owner, store.ListOptions{WholeNewest: KeepNewest})
		} else {
			sums, err = e.Store.ConversationsReusing(e.Ctx, recs, r.known, store.ListOptions{WholeNewest: KeepNewest})
		}
		if err != nil {
			return listOrderedMsg{req: req, owner: owner, err: err}
		}
		items := make([]Item, len(sums))
		for i, s := range sums {
			items[i] = Item{Sum: s, Peer: store.PeerOf(s.Conversation, owner), Name: s.ConversationID, pending: true}
		}
		return listOrderedMsg{req: req, owner: owner, items: items, reuse: r,
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

// Load reads the owner's list again.
func (l *Model) Load() tea.Cmd {
	l.req = l.e.NewReq()
	l.loading = true
	return loadList(l.e, l.req, l.owner)
}

// Retry repeats the read that failed: the owner's list, or the search for
// an owner. Nil when nothing failed.
func (l *Model) Retry() tea.Cmd {
	if l.err == nil {
		return nil
	}
	l.err = nil
	if l.owner == "" {
		return l.FindOwner()
	}
	return l.Load()
}

// SwitchOwner reads the list of id, a new owner, with what the list shown
// holds (listReuse) and names (the timeline's too), and brings along their
// window of the conversation of at (nil: none) for the timeline waiting
// under winReq (Landed.Window).
func (l *Model) SwitchOwner(id string, names map[string]string, at *bucket.Window, winReq common.ReqID) tea.Cmd {
	l.owner = id
	r := listReuse{known: map[string]bucket.Window{}, names: map[string]string{}, groups: maps.Clone(l.groups), winReq: winReq, at: at}
	if l.err == nil && !l.loading {
		for _, it := range l.items {
			r.known[it.Sum.ConversationID] = it.Sum.Window
		}
	}
	maps.Copy(r.names, l.names)
	maps.Copy(r.names, names)
	l.req = l.e.NewReq()
	l.loading = true
	return readViewer(l.e, l.req, l.owner, r)
}

// Window is a viewer's window of the open conversation that a list read
// brought along for the timeline waiting under Req.
type Window struct {
	Req    common.ReqID
	Viewer string
	Win    bucket.Window
	Err    error
}

// Landed is what a reply to the list brings beyond the list.
type Landed struct {
	Cmd    tea.Cmd
	Names  map[string]string // a list was read: the user names it knows
	Window *Window           // a window the timeline waits for
}

// Reply takes a reply to one of the list's reads (ok false: not one), the
// selection kept on open, the conversation the timeline shows ("" none).
func (l *Model) Reply(msg tea.Msg, open string) (res Landed, ok bool) {
	switch msg := msg.(type) {
	case firstViewerMsg:
		res.Cmd = l.firstViewer(msg)
	case ViewerReadMsg:
		res.Window, res.Cmd = l.viewerRead(msg)
	case listOrderedMsg:
		if msg.req != l.req {
			return res, true // a list for a viewer already left
		}
		if msg.err != nil {
			l.loading, l.err = false, msg.err
			return res, true
		}
		res.Cmd = fillScreen(l.e, msg.req, msg, l.onScreen(msg.items, open, msg.fromMessages))
	case listLoadedMsg:
		if msg.req != l.req {
			return res, true // a list for a viewer already left
		}
		l.loading = false
		l.err = msg.err
		if msg.err == nil {
			l.setItems(msg.items, open)
			l.itemsFor = msg.owner
			l.names, l.groups = msg.names, msg.groups
			l.fromMessages = msg.fromMessages
			res.Names = msg.names
			res.Cmd = tea.Batch(l.warnUnknownOwner(msg), readRest(l.e, msg.req, l.items, l.owner, l.names, l.groups), l.notes.load(l.e, l.owner, l.items))
		}
	case noticesLoadedMsg:
		keep := ""
		if it := l.Selected(); it != nil {
			keep = it.Sum.ConversationID
		}
		if l.notes.landed(msg) {
			l.applyFilter()
			l.Select(keep) // the cursor stays on its row as the section lands
		}
	case RestMsg:
		res.Names, res.Cmd = l.restLanded(msg)
	default:
		return res, false
	}
	return res, true
}

// viewerRead gives the timeline the window it waits for, then reads the
// rest of the list from the records (unless another list was asked since).
func (l *Model) viewerRead(msg ViewerReadMsg) (*Window, tea.Cmd) {
	var win *Window
	if msg.reuse.winReq != 0 { // whatever becomes of the list
		w := bucket.Window{}
		if msg.err == nil && msg.recs.Window != nil {
			w = *msg.recs.Window
		}
		win = &Window{Req: msg.reuse.winReq, Viewer: msg.owner, Win: w, Err: msg.err}
	}
	if msg.req != l.req {
		return win, nil // a list for a viewer already left
	}
	if msg.err != nil {
		l.loading, l.err = false, msg.err
		return win, nil
	}
	return win, loadListReusing(l.e, msg.req, msg.owner, msg.reuse, msg.recs)
}

// warnUnknownOwner says so when the list's owner looks like a mistyped ID:
// no conversation documents, and no user record while the user collection
// answered for others (an empty collection proves nothing).
func (l *Model) warnUnknownOwner(msg listLoadedMsg) tea.Cmd {
	if len(msg.names) > 0 {
		l.usersKnown = true
	}
	if !msg.fromMessages && len(msg.items) > 0 {
		return nil
	}
	if _, known := msg.names[msg.owner]; !known && l.usersKnown {
		return l.e.Say(fmt.Sprintf("no user %q in the user collection: check the ID (%s to view as another)",
			msg.owner, l.e.Keys.ViewAsAny.Help().Key), true)
	}
	return nil
}
