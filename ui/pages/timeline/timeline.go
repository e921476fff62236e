// Package timeline is the open conversation's page: a run of whole buckets
// around the cursor, projected for the viewer at draw time; its keys, its
// reads and what they bring, and its drawing. The root reaches it through
// its methods: the keys it does not route elsewhere (Update), the replies
// to its reads (Reply), what it shows (Cursor, Viewer, ...) and what the
// root's dialogs need of the row under the cursor.
package timeline

import (
	"maps"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// keepBuckets is how many buckets are held on each side of the cursor's
// bucket: enough for a screen and the prefetch, and memory stays flat
// however long the conversation is.
const keepBuckets = 2

// Model is the open conversation: a contiguous run of whole buckets
// around the cursor, projected for the viewer at draw time, so switching
// viewer needs no read.
type Model struct {
	e    *common.Common
	cid  string
	name string
	conv projection.Conv
	req  common.ReqID // the view's number: new on every (re)open or jump; every bucket read of the view carries it

	// The other replies the timeline waits for, by request number (0: none).
	winReq     common.ReqID // the viewer's window, after a switch
	compareReq common.ReqID // the compare viewer's window
	membersReq common.ReqID
	jumpReq    common.ReqID // a jump resolved in the background (a date, the next message past holes)

	focused bool // the keys come here (the cursor is ▸, else ▹)

	viewer string
	win    bucket.Window            // the viewer's window
	wins   map[string]bucket.Window // windows known per viewer
	winOK  bool                     // win belongs to viewer (false while it loads)
	base   bucket.Window            // the opening window: where messages start and end for everyone
	newest *bucket.Bucket           // the list's read of the newest bucket, until open uses it

	buckets map[int64]*bucket.Bucket
	gaps    []gap // runs of the held run with nothing stored (gaps.go)
	lo, hi  int64 // the held run, when buckets is not empty
	pending map[int64]bool
	fetched int // timeline bucket reads issued (quote reads apart): tests check paging with it
	err     error

	// quoted holds, beside the run and by seq, the slots that quotes in it
	// quote (rule 5: a quote shows its quoted seq as the viewer sees it).
	// Only those the run needs are kept, so memory stays flat.
	quoted       map[int64]bucket.StoredSlot
	quotePending map[int64]bool                // seqs of quotes-only reads in flight
	quoteRefs    map[*bucket.Bucket][]quoteRef // the quotes of each held bucket (quotesOf)

	cursor, top int64 // selected seq and first seq drawn
	// queued is the rows the cursor still has to move (negative: up), keys
	// pressed past the held run while the bucket beyond is read: every key
	// of a held or repeated key counts, applied as the bucket lands.
	queued     int64
	queuedPage bool // they were page keys: the top follows the cursor
	inBurst    bool // keys of one burst are being handled: read ahead after the last (EndBurst)
	boundaries bool

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
	compareAs    string            // second viewer of the compare view, "" when off
	lastCompared string            // the compare picker starts on them next time
	diffs        diffScan          // what the two viewers of the compare view see differently
	diffOnly     bool              // the compare view shows only the differences
	diffTop      int               // first run drawn in "differences only"
	search       search
	clockFmt     string             // the send time layout of the rows drawn (clockLayout)
	runOf        map[int64][2]int64 // runs of holes drawn as one row (holes.go)
	follow       follow
	receipts     receipts // who has read the message under the cursor (readers.go)
}

type membersState int

const (
	membersUnread membersState = iota
	membersLoading
	membersRead
)

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
		conv:    projection.Conv{ID: cid, SessionType: store.ConversationTypeOf(cid)},
		win:     c.Sum.Window,
		base:    c.Sum.Window,
		newest:  c.Sum.Window.Last,
		wins:    map[string]bucket.Window{},
		winOK:   true,
		owner:   viewer,
		peer:    c.Peer,
		names:   maps.Clone(names),
		buckets: map[int64]*bucket.Bucket{}, pending: map[int64]bool{},
		quoted: map[int64]bucket.StoredSlot{}, quotePending: map[int64]bool{}}
	if t.names == nil {
		t.names = map[string]string{}
	}
	t.win.Last, t.base.Last = nil, nil
	t.wins[viewer] = t.win
	t.cursor, t.top = t.win.MaxSeq, t.win.MaxSeq
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

// Comparing is the compare view's second viewer, "" when it is off.
func (t *Model) Comparing() string { return t.compareAs }

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

// Scroll moves the cursor by delta rows (the mouse wheel).
func (t *Model) Scroll(delta int) tea.Cmd { return t.move(int64(delta), false) }

// BeginBurst and EndBurst bracket the keys of one burst: the buckets they
// go past are read ahead once, after the last (EndBurst's command).
func (t *Model) BeginBurst() { t.inBurst = true }

func (t *Model) EndBurst() tea.Cmd {
	t.inBurst = false
	return t.prefetch()
}

func (t *Model) minSeq() int64 { return max(1, t.win.MinSeq) }
func (t *Model) maxSeq() int64 { return t.win.MaxSeq }

// empty: the viewer sees nothing, as OpenIM's pull gives them nothing when
// they own no conversation document for it (as dump shows them).
func (t *Model) empty() bool { return t.win.PulledNothing() || t.win.MaxSeq < t.minSeq() }

// heldRange is the seqs the cursor may visit now.
func (t *Model) heldRange() (from, to int64) {
	if len(t.buckets) == 0 {
		return t.cursor, t.cursor
	}
	return max(t.minSeq(), bucket.FirstSeq(t.lo)), min(t.maxSeq(), bucket.LastSeq(t.hi))
}

func (t *Model) clampCursor() {
	from, to := t.heldRange()
	t.cursor = t.rowOf(max(from, min(to, t.cursor)))
	t.top = t.rowOf(max(from, min(t.top, t.cursor)))
}

// move shifts the cursor by delta rows within what is held and prefetches.
// The top of the screen moves by the same amount for page moves. Rows past
// the held run wait in queued for the read of the bucket beyond.
func (t *Model) move(delta int64, page bool) tea.Cmd {
	delta, page = delta+t.queued, page || t.queuedPage
	t.queued, t.queuedPage = 0, false
	if len(t.buckets) == 0 {
		if len(t.pending) > 0 && t.err == nil {
			t.queued, t.queuedPage = delta, page // the first screen is being read
		}
		return nil
	}
	// Row by row: a gap is one row, however many seqs it stands for.
	from, to := t.heldRange()
	step := int64(1)
	if delta < 0 {
		step = -1
	}
	moved, top := int64(0), t.top
	for moved != delta {
		next := t.stepRows(t.cursor, step)
		if next < from || next > to {
			break
		}
		t.cursor, moved = next, moved+step
	}
	if moved != delta && t.err == nil && ((step < 0 && from > t.minSeq()) || (step > 0 && to < t.maxSeq())) {
		t.queued, t.queuedPage = delta-moved, page // the window goes on: prefetch reads the rest
	}
	t.clampCursor()
	if page { // from the top before the move: clampCursor may have pulled it down with the cursor
		t.top = t.rowOf(max(from, t.stepRows(top, moved)))
	}
	t.trim()
	if t.inBurst {
		return t.readQuoted()
	}
	return tea.Batch(t.prefetch(), t.readQuoted())
}

// Slot returns the stored slot at seq if its bucket is held.
func (t *Model) Slot(seq int64) (bucket.StoredSlot, *bucket.Bucket, bool) {
	b := t.buckets[bucket.BucketIndex(seq)]
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

// jumpTo moves the cursor to seq, re-reading around it when not held. A
// jump still being resolved is dropped: this one is newer.
func (t *Model) jumpTo(seq int64) tea.Cmd {
	t.jumpReq, t.queued = 0, 0
	seq = max(t.minSeq(), min(t.maxSeq(), seq))
	_, inGap := t.gapAt(bucket.BucketIndex(seq))
	if _, _, ok := t.Slot(seq); ok || inGap {
		t.cursor = seq
		t.clampCursor()
		t.trim()
		return tea.Batch(t.prefetch(), t.readQuoted())
	}
	return t.loadAround(seq)
}

// memberName is the nickname of a member when known, else the ID.
func (t *Model) memberName(id string) string {
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
