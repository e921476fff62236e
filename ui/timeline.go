package ui

import (
	"maps"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/list"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// timeline is the open conversation: its data half (the buckets read, the
// rows they make for the viewer, the cursor, the keys waiting on a read) is
// tl, a pure model; the timeline turns keys and replies into its calls,
// runs the reads it asks for, and draws. Slots are projected for the viewer
// at draw time, so switching viewer needs no read of buckets.
type timeline struct {
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

	note *statusNote // what the last key or reply has to say (say)

	// members are read on first need (the viewer picker, cycling, the role
	// of a revoke), not on open: opening a conversation reads only buckets.
	members      []store.Member
	membersAt    membersState
	owner        string            // whose list opened the timeline
	peer         string            // the other user of a single chat
	names        map[string]string // nicknames known from the conversation list
	compareAs    string            // second viewer of the compare view, "" when off
	lastCompared string            // the compare picker starts on them next time
	diffs        diffScan          // what the two viewers of the compare view see differently
	diffOnly     bool              // the compare view shows only the differences
	diffTop      int               // first run drawn in "differences only"
	search       search
	clockFmt     string // the send time layout of the rows drawn (clock.go)
	follow       follow
	receipts     receipts // who has read the message under the cursor (readers.go)
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

// newTimeline opens it as viewer with what the list already read: the
// window, the newest bucket and the names, so none of it is read again.
func newTimeline(e *common.Common, it *list.Item, viewer string, names map[string]string) *timeline {
	t := &timeline{e: e, cid: it.Sum.ConversationID, name: it.Name, req: e.NewReq(), viewer: viewer,
		conv:   projection.Conv{ID: it.Sum.ConversationID, SessionType: store.ConversationTypeOf(it.Sum.ConversationID)},
		win:    it.Sum.Window,
		base:   it.Sum.Window,
		newest: it.Sum.Window.Last,
		wins:   map[string]bucket.Window{},
		winOK:  true,
		owner:  viewer,
		peer:   it.Peer,
		names:  maps.Clone(names),
		quoted: map[int64]bucket.StoredSlot{}, quotePending: map[int64]bool{}}
	if t.names == nil {
		t.names = map[string]string{}
	}
	t.win.Last, t.base.Last = nil, nil
	t.wins[viewer] = t.win
	t.tl = model.New(model.Config{Keep: keepBuckets, Batch: e.Store.FindBatch}, viewer, t.win, t.win.MaxSeq)
	t.tlViewer = viewer
	t.sync()
	return t
}

func (t *timeline) minSeq() int64 { return max(1, t.win.MinSeq) }
func (t *timeline) maxSeq() int64 { return t.win.MaxSeq }

// empty: the viewer sees nothing, as OpenIM's pull gives them nothing when
// they own no conversation document for it (as dump shows them).
func (t *timeline) empty() bool { return t.win.PulledNothing() || t.win.MaxSeq < t.minSeq() }

// rowAt reports the row at seq drawable.
func (t *timeline) rowAt(seq int64) bool {
	_, ok := t.tl.RowAt(seq)
	return ok
}

// press gives tl a key and runs the reads it asks for.
func (t *timeline) press(k model.Key) tea.Cmd {
	if k.Kind == model.Top || k.Kind == model.Bottom || k.Kind == model.Jump {
		t.jumpReq = 0 // a date still being resolved is older than this jump
	}
	reads := t.tl.Press(k)
	if n := t.tl.TakeNote(); n != "" {
		t.say(n, false)
	}
	return t.after(reads)
}

// slot returns the stored slot at seq if its bucket is held.
func (t *timeline) slot(seq int64) (bucket.StoredSlot, *bucket.Bucket, bool) {
	b := t.tl.Held(bucket.BucketIndex(seq))
	if b == nil {
		return bucket.StoredSlot{}, nil, false
	}
	return b.Slots[bucket.SlotIndex(seq)], b, true
}

// message projects seq for viewer from the held slots.
func (t *timeline) message(seq int64, viewer string) (projection.Message, bool) {
	s, b, ok := t.slot(seq)
	if !ok {
		return projection.Message{}, false
	}
	return projection.View(s, b.DocID, viewer, t.conv, t.quotedSlot), true
}

// jumpTo moves the cursor to the row holding seq, reading around it when
// it is not held.
func (t *timeline) jumpTo(seq int64) tea.Cmd {
	t.jumpReq = 0
	return t.press(model.Key{Kind: model.Jump, Seq: seq})
}

// memberName is the nickname of a member when known, else the ID.
func (t *timeline) memberName(id string) string {
	for _, m := range t.members {
		if m.UserID == id && m.Nickname != "" {
			return m.Nickname
		}
	}
	if n := t.names[id]; n != "" {
		return n
	}
	return id
}
