package ui

import (
	"maps"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"

	"github.com/chatlens/chatlens/ui/pages/list"
)

// keepBuckets is how many buckets are held on each side of the cursor's
// bucket: enough for a screen and the prefetch, and memory stays flat
// however long the conversation is.
const keepBuckets = 2

// timeline is the open conversation: a contiguous run of whole buckets
// around the cursor, projected for the viewer at draw time, so switching
// viewer needs no read.
type timeline struct {
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
	gaps    []gap // runs of the held run with nothing stored (timeline_gaps.go)
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
	inBurst    bool // keys of one burst are being handled: read ahead after the last (handleKeys)
	boundaries bool

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
	clockFmt     string             // the send time layout of the rows drawn (clock.go)
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

// newTimeline opens it as viewer with what the list already read: the
// window, the newest bucket and the names, so none of it is read again.
func newTimeline(e *common.Common, it *list.Item, viewer string, names map[string]string) *timeline {
	t := &timeline{e: e, cid: it.Sum.ConversationID, name: it.Name, req: e.NewReq(), viewer: viewer,
		conv:    projection.Conv{ID: it.Sum.ConversationID, SessionType: store.ConversationTypeOf(it.Sum.ConversationID)},
		win:     it.Sum.Window,
		base:    it.Sum.Window,
		newest:  it.Sum.Window.Last,
		wins:    map[string]bucket.Window{},
		winOK:   true,
		owner:   viewer,
		peer:    it.Peer,
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

func (t *timeline) minSeq() int64 { return max(1, t.win.MinSeq) }
func (t *timeline) maxSeq() int64 { return t.win.MaxSeq }

// empty: the viewer sees nothing, as OpenIM's pull gives them nothing when
// they own no conversation document for it (as dump shows them).
func (t *timeline) empty() bool { return t.win.PulledNothing() || t.win.MaxSeq < t.minSeq() }

// heldRange is the seqs the cursor may visit now.
func (t *timeline) heldRange() (from, to int64) {
	if len(t.buckets) == 0 {
		return t.cursor, t.cursor
	}
	return max(t.minSeq(), bucket.FirstSeq(t.lo)), min(t.maxSeq(), bucket.LastSeq(t.hi))
}

func (t *timeline) clampCursor() {
	from, to := t.heldRange()
	t.cursor = t.rowOf(max(from, min(to, t.cursor)))
	t.top = t.rowOf(max(from, min(t.top, t.cursor)))
}

// move shifts the cursor by delta rows within what is held and prefetches.
// The top of the screen moves by the same amount for page moves. Rows past
// the held run wait in queued for the read of the bucket beyond.
func (t *timeline) move(delta int64, page bool) tea.Cmd {
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

// slot returns the stored slot at seq if its bucket is held.
func (t *timeline) slot(seq int64) (bucket.StoredSlot, *bucket.Bucket, bool) {
	b := t.buckets[bucket.BucketIndex(seq)]
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

// jumpTo moves the cursor to seq, re-reading around it when not held. A
// jump still being resolved is dropped: this one is newer.
func (t *timeline) jumpTo(seq int64) tea.Cmd {
	t.jumpReq, t.queued = 0, 0
	seq = max(t.minSeq(), min(t.maxSeq(), seq))
	_, inGap := t.gapAt(bucket.BucketIndex(seq))
	if _, _, ok := t.slot(seq); ok || inGap {
		t.cursor = seq
		t.clampCursor()
		t.trim()
		return tea.Batch(t.prefetch(), t.readQuoted())
	}
	return t.loadAround(seq)
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
