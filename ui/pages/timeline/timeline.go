// Package timeline is the open conversation's page: a run of whole buckets
// around the cursor, projected for the viewer at draw time; its keys, its
// reads and what they bring, and its drawing. The root reaches it through
// its methods: the keys it does not route elsewhere (Update), the replies
// to its reads (Reply), what it shows (Cursor, Viewer, ...) and what the
// root's dialogs need of the row under the cursor.
package timeline

import (
	"maps"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

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

	// The other replies the timeline waits for, by request number (0: none).
	winReq     common.ReqID // the viewer's window, after a switch
	compareReq common.ReqID // the compare viewer's window
	membersReq common.ReqID
	jumpReq    common.ReqID // a date jump resolved in the background

	focused bool // the keys come here (the cursor is ▸, else ▹)

	viewer string
	win    bucket.Window            // the viewer's window (tl's, after every call: sync)
	wins   map[string]bucket.Window // windows known per viewer
	winOK  bool                     // win belongs to viewer (false while it loads)
	base   bucket.Window            // the opening window: where messages start and end for everyone
	newest *bucket.Bucket           // the list's read of the newest bucket, until open uses it

	fetched int   // timeline bucket reads issued (quote reads apart): tests check paging with it
	err     error // why the last read failed

	// quoted holds, beside the held buckets and by seq, the slots that
	// quotes in them quote (rule 5: a quote shows its quoted seq as the
	// viewer sees it). Only those the held buckets need are kept, so memory
	// stays flat.
	quoted       map[int64]bucket.StoredSlot
	quotePending map[int64]bool                // seqs of quotes-only reads in flight
	quoteRefs    map[*bucket.Bucket][]quoteRef // the quotes of each held bucket (quotesOf)

	cursor, top int64 // tl's cursor and screen top, after every call (sync)
	boundaries  bool  // tl's, after every call
	// tlViewer is the viewer tl last had; switchTo and wantWindow are what
	// the root does next: switch to a viewer tl moved to (V), or to one tl
	// waits for the window of.
	tlViewer, switchTo, wantWindow string

	// The size and what SetSize settled for View: the notes drawn above
	// the rows, which take a row each.
	width, height          int
	olderNote, clearedNote bool

	note *common.Note // what the last key or reply has to say (say, TakeNote)

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
	written      *Written // a transcript written in the last update, for the root (TranscriptWritten)
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
		wins:   map[string]bucket.Window{},
		winOK:  true,
		owner:  viewer,
		peer:   c.Peer,
		names:  maps.Clone(names),
		quoted: map[int64]bucket.StoredSlot{}, quotePending: map[int64]bool{}}
	if t.names == nil {
		t.names = map[string]string{}
	}
	t.win.Last, t.base.Last = nil, nil
	t.wins[viewer] = t.win
	t.tl = model.New(model.Config{Keep: keepBuckets, Batch: e.Store.FindBatch, Conv: t.conv}, viewer, t.win, t.win.MaxSeq)
	t.tlViewer = viewer
	t.sync()
	return t
}

// ID is the conversation's ID.
func (t *Model) ID() string { return t.cid }

// Viewer is whose eyes the timeline uses.
func (t *Model) Viewer() string { return t.viewer }

// Cursor is the seq under the cursor.
func (t *Model) Cursor() int64 { return t.cursor }

// MaxSeq is the last seq of the viewer's window.
func (t *Model) MaxSeq() int64 { return t.maxSeq() }

// End is where the conversation ends for everyone (the seq document).
func (t *Model) End() int64 { return t.base.EndSeq }

// Empty reports the viewer shown nothing.
func (t *Model) Empty() bool { return t.empty() }

// Window is the viewer's window; WindowKnown reports it is theirs (false
// while it is read after a switch), WindowPending that a read of it is
// under way.
func (t *Model) Window() bucket.Window { return t.win }

func (t *Model) WindowKnown() bool { return t.winOK }

func (t *Model) WindowPending() bool { return t.winReq != 0 }

// Err is why the last read failed, nil when none did.
func (t *Model) Err() error { return t.err }

// Names are the nicknames known, by user ID; AddNames adds more.
func (t *Model) Names() map[string]string { return t.names }

func (t *Model) AddNames(names map[string]string) { maps.Copy(t.names, names) }

// SetFocused tells the timeline the keys come to it (its cursor is ▸).
func (t *Model) SetFocused(focused bool) { t.focused = focused }

// JumpTo moves the cursor to seq (a click, a message found by ID).
func (t *Model) JumpTo(seq int64) tea.Cmd {
	t.newest = nil // not opened: what the list read is not needed
	return t.jumpTo(seq)
}

// Scroll moves the cursor by delta rows (the mouse wheel), each a key.
func (t *Model) Scroll(delta int) tea.Cmd {
	kind, n := model.Down, delta
	if delta < 0 {
		kind, n = model.Up, -delta
	}
	t.tl.Hold()
	for range n {
		t.tl.Press(model.Key{Kind: kind})
	}
	return t.after(t.tl.Release())
}

// BeginBurst and EndBurst bracket the keys of one burst: the model takes
// them all, then asks once for what they need (EndBurst's command).
func (t *Model) BeginBurst() { t.tl.Hold() }

func (t *Model) EndBurst() tea.Cmd { return t.after(t.tl.Release()) }

func (t *Model) minSeq() int64 { return max(1, t.win.MinSeq) }
func (t *Model) maxSeq() int64 { return t.win.MaxSeq }

// empty: the viewer sees nothing, as OpenIM's pull gives them nothing when
// they own no conversation document for it (as dump shows them).
func (t *Model) empty() bool { return t.win.PulledNothing() || t.win.MaxSeq < t.minSeq() }

// rowAt reports the row at seq drawable.
func (t *Model) rowAt(seq int64) bool {
	_, ok := t.tl.Rows().At(seq)
	return ok
}

// press gives tl a key and runs the reads it asks for.
func (t *Model) press(k model.Key) tea.Cmd {
	if k.Kind == model.Top || k.Kind == model.Bottom || k.Kind == model.Jump {
		t.jumpReq = 0 // a date still being resolved is older than this jump
	}
	return t.after(t.tl.Press(k))
}

// slot returns the stored slot at seq if its bucket is held.
func (t *Model) Slot(seq int64) (bucket.StoredSlot, *bucket.Bucket, bool) {
	b := t.tl.Held(bucket.BucketIndex(seq))
	if b == nil {
		return bucket.StoredSlot{}, nil, false
	}
	return b.Slots[bucket.SlotIndex(seq)], b, true
}

// Message projects seq for viewer from the held slots.
func (t *Model) Message(seq int64, viewer string) (projection.Message, bool) {
	s, b, ok := t.Slot(seq)
	if !ok {
		return projection.Message{}, false
	}
	return projection.View(s, b.DocID, viewer, t.conv, t.quotedSlot), true
}

// jumpTo moves the cursor to the row holding seq, reading around it when
// it is not held.
func (t *Model) jumpTo(seq int64) tea.Cmd {
	t.jumpReq = 0
	return t.press(model.Key{Kind: model.Jump, Seq: seq})
}

// memberName is the nickname of a member when known, else the ID.
func (t *Model) memberName(id string) string { return memberName(t.members, t.names, id) }

// nameSnapshot is memberName over copies of what it reads, for a command
// that runs while the update loop adds names.
func (t *Model) nameSnapshot() func(id string) string {
	members, names := slices.Clone(t.members), maps.Clone(t.names)
	return func(id string) string { return memberName(members, names, id) }
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
