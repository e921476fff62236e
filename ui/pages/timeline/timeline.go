// Package timeline is the open conversation's page: a run of whole buckets
// around the cursor, projected for the viewer at draw time; its keys, its
// reads and what they bring, and its drawing. The root reaches it through
// its methods: the keys it does not route elsewhere (Update), the replies
// to its reads (Reply), what it shows (Cursor, Viewer, ...) and what the
// root's dialogs need of the row under the cursor; and through its
// features, one type and file each, as a repository page has one per tab:
// Compare, Search, Follow, Inspector, Transcript, Moves (jumps, the wheel,
// bursts) and Viewers. They hold nothing of their own: the keys that move
// the cursor or change who is seen go to the model's one queue
// (timeline/model), and they draw what it holds. What the page learns on
// its own (a line for the status bar, a viewer switch decided on a reply,
// a transcript written, the followed conversation grown) it tells the root
// by messages its commands return (messages.go).
package timeline

import (
	"maps"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// timeline is the open conversation: its data half (the buckets read, the
// rows they make for the viewer, the cursor, the keys waiting on a read) is
// tl, a pure model; the timeline turns keys and replies into its calls,
// runs the reads it asks for, and draws. Slots are projected for the viewer
// at draw time, so switching viewer needs no read of buckets.
type Model struct {
	e    *common.Common
	cid  string
	name string
	conv projection.Conv
	req  common.ReqID // the view's number: every bucket read of the view carries it; new on R

	tl *model.Model // the data half

	// The page's own parts, each to its job.
	load  loader
	quote quoter
	draw  drawing

	// The other replies the timeline waits for, by request number (0: none).
	winReq     common.ReqID // the viewer's window, after a switch
	compareReq common.ReqID // the compare viewer's window
	membersReq common.ReqID

	focused bool // the keys come here (the cursor is ▸, else ▹)

	viewer string
	win    bucket.Window  // the viewer's window, as the root shows it
	winOK  bool           // win belongs to viewer (false while it loads)
	base   bucket.Window  // the opening window: where messages start and end for everyone
	newest *bucket.Bucket // the list's read of the newest bucket, until open uses it

	fetched int // timeline bucket reads issued (quote reads apart): tests check paging with it
	// quoteErr is why the last read of quoted slots alone failed (the
	// model's Err says why its own reads did), until the next read round.
	quoteErr error

	// quoted holds, beside the held buckets and by seq, the slots that
	// quotes in them quote (rule 5: a quote shows its quoted seq as the
	// viewer sees it). Only those the held buckets need are kept, so memory
	// stays flat.
	quoted       map[int64]bucket.StoredSlot
	quotePending map[int64]bool                // seqs of quotes-only reads in flight
	quoteRefs    map[*bucket.Bucket][]quoteRef // the quotes of each held bucket (quotesOf)

	// tlViewer is the viewer tl last had: when tl moves (V), the root is
	// asked to follow (movedViewer).
	tlViewer string

	// The size and what SetSize settled for View: the notes drawn above
	// the rows, which take a row each.
	width, height          int
	olderNote, clearedNote bool

	// members are read on first need (the viewer picker, cycling, the role
	// of a revoke), not on open: opening a conversation reads only buckets.
	members      []store.Member
	membersAt    membersState
	owner        string            // whose list opened the timeline
	peer         string            // the other user of a single chat
	names        map[string]string // nicknames known from the conversation list
	lastCompared string            // the compare picker starts on them next time
	diffTop      int               // first run drawn in "differences only"
	looking      bool              // a key waits for the scan: said once (takeModelNote)
	search       search
	clockFmt     string // the send time layout of the rows drawn (clock.go)
	follow       follow
	receipts     receipts // who has read the message under the cursor (readers.go)
	told         told     // the notifications of the slot under the cursor (told.go)
	life         life     // the viewer's dated evidence of the conversation, for the slot's life (life.go)
}

type membersState int

const (
	membersUnread membersState = iota
	membersLoading
	membersRead
)

// keepBuckets is how many buckets are held on each side of the cursor's
// bucket: enough for a screen and the reads ahead, and memory stays flat
// however long the conversation is.
const keepBuckets = 2

var _ common.Component = (*Model)(nil)

// Conversation is what the list read of the conversation to open: its
// summary (the owner's window, the newest bucket), its name and, for a
// single chat, the other user.
type Conversation struct {
	Sum  store.ConversationSummary
	Name string
	Peer string
}

// New opens c as viewer with what the list already read: the window, the
// newest bucket and the names, so none of it is read again (Open).
func New(e *common.Common, c Conversation, viewer string, names map[string]string) *Model {
	cid := c.Sum.ConversationID
	t := &Model{e: e, cid: cid, name: c.Name, req: e.NewReq(), viewer: viewer,
		conv:   projection.Conv{ID: cid, SessionType: store.ConversationTypeOf(cid)},
		win:    c.Sum.Window,
		base:   c.Sum.Window,
		newest: c.Sum.Window.Last,
		winOK:  true,
		owner:  viewer,
		peer:   c.Peer,
		names:  maps.Clone(names),
		quoted: map[int64]bucket.StoredSlot{}, quotePending: map[int64]bool{}}
	t.load, t.quote, t.draw = loader{t}, quoter{t}, drawing{t}
	if t.names == nil {
		t.names = map[string]string{}
	}
	t.win.Last, t.base.Last = nil, nil
	t.tl = model.New(model.Config{Keep: keepBuckets, Batch: e.Store.FindBatch, Conv: t.conv}, viewer, t.win, t.win.MaxSeq)
	t.tlViewer = viewer
	return t
}

// ID is the conversation's ID.
func (t *Model) ID() string { return t.cid }

// Viewer is whose eyes the timeline uses.
func (t *Model) Viewer() string { return t.viewer }

// Cursor is the seq under the cursor.
func (t *Model) Cursor() int64 { return t.tl.Cursor() }

// Window is the viewer's window; WindowKnown reports it is theirs (false
// while it is read after a switch), WindowPending that a read of it is
// under way.
func (t *Model) Window() bucket.Window { return t.win }

func (t *Model) WindowKnown() bool { return t.winOK }

func (t *Model) WindowPending() bool { return t.winReq != 0 }

// Err is why the last read failed, nil when none did.
func (t *Model) Err() error {
	if err := t.tl.Err(); err != nil {
		return err
	}
	return t.quoteErr
}

// SetFocused tells the timeline the keys come to it (its cursor is ▸).
func (t *Model) SetFocused(focused bool) { t.focused = focused }

// slot returns the stored slot at seq if its bucket is held.
func (t *Model) Slot(seq int64) (bucket.StoredSlot, *bucket.Bucket, bool) {
	b := t.tl.Held(bucket.BucketIndex(seq))
	if b == nil {
		return bucket.StoredSlot{}, nil, false
	}
	return b.Slots[bucket.SlotIndex(seq)], b, true
}

// Message projects seq for viewer from the held slots: the viewer's at
// the moment shown, anyone else's now.
func (t *Model) Message(seq int64, viewer string) (projection.Message, bool) {
	v := model.View{Viewer: viewer}
	if viewer == t.viewer {
		v = t.Moment().main()
	}
	m, _, ok := t.Moment().message(seq, v)
	return m, ok
}

func memberName(members []store.Member, names map[string]string, id string) string {
	for _, m := range members {
		if m.UserID == id && m.Nickname != "" {
			return m.Nickname
		}
	}
	if n := names[id]; n != "" {
		return n
	}
	return id
}
