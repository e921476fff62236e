package ui

import (
	"maps"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

// keepBuckets is how many buckets are held on each side of the cursor's
// bucket: enough for a screen and the prefetch, and memory stays flat
// however long the conversation is.
const keepBuckets = 2

// timeline is the open conversation: a contiguous run of whole buckets
// around the cursor, projected for the viewer at draw time, so switching
// viewer needs no read.
type timeline struct {
	e    *env
	cid  string
	name string
	conv projection.Conv
	req  reqID // the view's number: new on every (re)open or jump; every bucket read of the view carries it

	// The other replies the timeline waits for, by request number (0: none).
	winReq     reqID // the viewer's window, after a switch
	compareReq reqID // the compare viewer's window
	membersReq reqID
	jumpReq    reqID // a jump resolved in the background (a date, the next message past holes)

	viewer string
	win    store.Window            // the viewer's window
	wins   map[string]store.Window // windows known per viewer
	winOK  bool                    // win belongs to viewer (false while it loads)
	base   store.Window            // the opening window: where messages start and end for everyone
	newest *store.Bucket           // the list's read of the newest bucket, until open uses it

	buckets map[int64]*store.Bucket
	gaps    []gap // runs of the held run with nothing stored (timeline_gaps.go)
	lo, hi  int64 // the held run, when buckets is not empty
	pending map[int64]bool
	fetched int // timeline bucket reads issued (quote reads apart): tests check paging with it
	err     error

	// quoted holds, beside the run, the buckets that quotes in it quote
	// (rule 5: a quote shows its quoted seq as the viewer sees it). Only
	// those the run needs are kept, so memory stays flat.
	quoted       map[int64]*store.Bucket
	quotePending map[int64]bool // quotes-only reads in flight

	cursor, top int64 // selected seq and first seq drawn
	boundaries  bool

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
}

type membersState int

const (
	membersUnread membersState = iota
	membersLoading
	membersRead
)

// newTimeline opens it as viewer with what the list already read: the
// window, the newest bucket and the names, so none of it is read again.
func newTimeline(e *env, it *convItem, viewer string, names map[string]string) *timeline {
	t := &timeline{e: e, cid: it.sum.ConversationID, name: it.name, req: e.newReq(), viewer: viewer,
		conv:    projection.Conv{ID: it.sum.ConversationID, SessionType: store.ConversationTypeOf(it.sum.ConversationID)},
		win:     it.sum.Window,
		base:    it.sum.Window,
		newest:  it.sum.Window.Last,
		wins:    map[string]store.Window{},
		winOK:   true,
		owner:   viewer,
		peer:    it.peer,
		names:   maps.Clone(names),
		buckets: map[int64]*store.Bucket{}, pending: map[int64]bool{},
		quoted: map[int64]*store.Bucket{}, quotePending: map[int64]bool{}}
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
func (t *timeline) empty() bool   { return t.win.MaxSeq < t.minSeq() }

// open fills the first screen: the newest bucket the list already read and
// the one before it, in one find.
func (t *timeline) open() tea.Cmd {
	newest := t.newest
	t.newest = nil // held from now on, or not needed
	if t.empty() {
		return nil
	}
	if newest != nil && newest.Index != store.BucketIndex(t.cursor) {
		newest = nil // the window ends before it (a cap, an empty bucket)
	}
	return t.loadAround(t.cursor, newest)
}

// loadAround drops what is held and reads the buckets around seq but have,
// a bucket already read (nil if none).
func (t *timeline) loadAround(seq int64, have *store.Bucket) tea.Cmd {
	t.req = t.e.newReq()
	t.buckets, t.pending, t.err, t.gaps = map[int64]*store.Bucket{}, map[int64]bool{}, nil, nil
	t.quoted, t.quotePending = map[int64]*store.Bucket{}, map[int64]bool{}
	t.cursor, t.top = seq, seq
	b := store.BucketIndex(seq)
	if have != nil {
		t.buckets[b], t.lo, t.hi = have, b, b
		t.clampCursor()
	}
	var idx []int64
	for i := max(b-1, store.BucketIndex(t.minSeq())); i <= min(b+1, store.BucketIndex(t.maxSeq())); i++ {
		if i == b+1 && store.LastSeq(b)-seq > 50 {
			break // the screen ends well inside b
		}
		if _, held := t.buckets[i]; !held {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return t.prefetch()
	}
	return t.request(idx, false)
}

func (t *timeline) request(idx []int64, refresh bool) tea.Cmd {
	if len(idx) == 0 {
		return nil
	}
	for _, i := range idx {
		t.pending[i] = true
	}
	t.fetched += len(idx)
	return loadBuckets(t.e, t.readOf(idx, refresh))
}

// readOf is a read of buckets idx, telling the command what is held so
// quotes into it are not read again.
func (t *timeline) readOf(idx []int64, refresh bool) bucketRequest {
	have := make(map[int64]bool, len(t.buckets)+len(t.quoted))
	for i := range t.buckets {
		have[i] = true
	}
	for i := range t.quoted {
		have[i] = true
	}
	return bucketRequest{req: t.req, cid: t.cid, indexes: idx, minSeq: t.minSeq(), maxSeq: t.maxSeq(),
		refresh: refresh, have: have}
}

// loaded takes a bucket reply. Buckets that no longer join the held run
// (the cursor jumped away meanwhile) are dropped rather than kept as islands.
func (t *timeline) loaded(msg bucketsLoadedMsg) tea.Cmd {
	if msg.req != t.req {
		return nil // a late reply for a view already left
	}
	for _, i := range msg.indexes {
		delete(t.pending, i)
	}
	for _, i := range msg.quotedIdx {
		delete(t.quotePending, i)
	}
	if msg.err != nil {
		t.err = msg.err
		return nil
	}
	if msg.quotedIdx == nil { // a quotes-only read retries nothing else
		t.err = nil
	}
	for _, b := range msg.quoted {
		t.quoted[b.Index] = b
	}
	if msg.gap != nil && !msg.refresh {
		t.takeGap(*msg.gap)
	}
	for _, b := range msg.buckets {
		_, held := t.buckets[b.Index]
		switch {
		case held && !msg.refresh: // follow mode re-reads the newest bucket as it fills
			t.buckets[b.Index] = b
		case msg.refresh:
			if _, held := t.buckets[b.Index]; held {
				t.buckets[b.Index] = b
			}
		case len(t.buckets)+len(t.gaps) == 0:
			t.buckets[b.Index], t.lo, t.hi = b, b.Index, b.Index
		case b.Index == t.lo-1:
			t.buckets[b.Index], t.lo = b, b.Index
		case b.Index == t.hi+1:
			t.buckets[b.Index], t.hi = b, b.Index
		}
	}
	if t.follow.tailTo > 0 {
		t.cursor, t.follow.tailTo = t.follow.tailTo, 0 // following: onto the newest message
	}
	t.clampCursor()
	t.trim()
	t.keepQuoted(nil)
	drop := t.dropNotStored()
	return tea.Batch(drop, t.prefetch(), t.readQuoted())
}

// prefetch asks for the next bucket in either direction as soon as the
// cursor enters the last held one, so it is there before it is needed.
func (t *timeline) prefetch() tea.Cmd {
	if len(t.buckets) == 0 || t.err != nil {
		return nil
	}
	// The cursor's unit: its bucket, or the gap it is the row of.
	lo, hi := store.BucketIndex(t.cursor), store.BucketIndex(t.cursor)
	if g, ok := t.gapAt(lo); ok {
		lo, hi = g.lo, g.hi
	}
	var cmds []tea.Cmd
	if lo-1 < t.lo && t.lo > store.BucketIndex(t.minSeq()) && !t.pending[t.lo-1] {
		cmds = append(cmds, t.requestEdge(t.lo-1, true))
	}
	if hi+1 > t.hi && t.hi < store.BucketIndex(t.maxSeq()) && !t.pending[t.hi+1] {
		cmds = append(cmds, t.requestEdge(t.hi+1, false))
	}
	return tea.Batch(cmds...)
}

// trim drops buckets (and gaps) far from the cursor, keepBuckets of them
// on each side, keeping aside those that quotes still held quote.
func (t *timeline) trim() {
	units := t.units()
	cb := store.BucketIndex(t.cursor)
	at := slices.IndexFunc(units, func(u gap) bool { return cb >= u.lo && cb <= u.hi })
	if at < 0 {
		return
	}
	dropped := map[int64]*store.Bucket{}
	for i, u := range units {
		if i >= at-keepBuckets && i <= at+keepBuckets {
			continue
		}
		if b := t.buckets[u.lo]; b != nil && u.lo == u.hi {
			dropped[u.lo] = b
			delete(t.buckets, u.lo)
		}
		t.gaps = slices.DeleteFunc(t.gaps, func(g gap) bool { return g == u })
	}
	t.lo, t.hi = units[max(0, at-keepBuckets)].lo, units[min(len(units)-1, at+keepBuckets)].hi
	if len(dropped) > 0 {
		t.keepQuoted(dropped)
	}
}

// quotedBy lists the buckets quotes in the held run quote, but those have
// reports.
func (t *timeline) quotedBy(have func(int64) bool) []int64 {
	held := make([]*store.Bucket, 0, len(t.buckets))
	for _, b := range t.buckets {
		held = append(held, b)
	}
	return projection.QuotedBuckets(held, t.minSeq(), t.maxSeq(), have)
}

// keepQuoted keeps beside the run only the buckets its quotes need: those
// already kept, or just dropped from the run rather than read again.
func (t *timeline) keepQuoted(dropped map[int64]*store.Bucket) {
	kept := map[int64]*store.Bucket{}
	for _, i := range t.quotedBy(func(i int64) bool { return t.buckets[i] != nil }) {
		if b := t.quoted[i]; b != nil {
			kept[i] = b
		} else if b := dropped[i]; b != nil {
			kept[i] = b
		}
	}
	t.quoted = kept
}

// readQuoted reads what quotes in the run need and nothing holds. Rare: the
// read that brought a bucket brought what it quotes, unless that was held
// when asked for and dropped before the reply.
func (t *timeline) readQuoted() tea.Cmd {
	if len(t.buckets) == 0 || t.err != nil {
		return nil
	}
	var idx []int64
	for _, i := range t.quotedBy(func(i int64) bool { return t.buckets[i] != nil || t.quoted[i] != nil }) {
		if !t.quotePending[i] {
			t.quotePending[i] = true
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	return loadQuoted(t.e, t.readOf(idx, false))
}

// heldRange is the seqs the cursor may visit now.
func (t *timeline) heldRange() (from, to int64) {
	if len(t.buckets) == 0 {
		return t.cursor, t.cursor
	}
	return max(t.minSeq(), store.FirstSeq(t.lo)), min(t.maxSeq(), store.LastSeq(t.hi))
}

func (t *timeline) clampCursor() {
	from, to := t.heldRange()
	t.cursor = t.rowOf(max(from, min(to, t.cursor)))
	t.top = t.rowOf(max(from, min(t.top, t.cursor)))
}

// move shifts the cursor by delta seqs within what is held and prefetches.
// The top of the screen moves by the same amount for page moves.
func (t *timeline) move(delta int64, page bool) tea.Cmd {
	if len(t.buckets) == 0 {
		return nil
	}
	// Row by row: a gap is one row, however many seqs it stands for.
	from, to := t.heldRange()
	step := int64(1)
	if delta < 0 {
		step = -1
	}
	moved := int64(0)
	for moved != delta {
		next := t.stepRows(t.cursor, step)
		if next < from || next > to {
			break
		}
		t.cursor, moved = next, moved+step
	}
	t.clampCursor()
	if page {
		t.top = t.rowOf(max(from, t.stepRows(t.top, moved)))
	}
	t.trim()
	return tea.Batch(t.prefetch(), t.readQuoted())
}

// slot returns the stored slot at seq if its bucket is held.
func (t *timeline) slot(seq int64) (store.StoredSlot, *store.Bucket, bool) {
	b := t.buckets[store.BucketIndex(seq)]
	if b == nil {
		return store.StoredSlot{}, nil, false
	}
	return b.Slots[store.SlotIndex(seq)], b, true
}

// quotedSlot finds a quoted seq in the run or beside it (rule 5).
func (t *timeline) quotedSlot(seq int64) (store.StoredSlot, bool) {
	if s, _, ok := t.slot(seq); ok {
		return s, true
	}
	if b := t.quoted[store.BucketIndex(seq)]; b != nil {
		return b.Slots[store.SlotIndex(seq)], true
	}
	return store.StoredSlot{}, false
}

// message projects seq for viewer from the held slots.
func (t *timeline) message(seq int64, viewer string) (projection.Message, bool) {
	s, b, ok := t.slot(seq)
	if !ok {
		return projection.Message{}, false
	}
	return projection.View(s, b.DocID, viewer, t.conv, t.quotedSlot), true
}

// setViewer switches whose eyes the timeline uses. The held slots are
// re-projected at the next draw; only the viewer's window (min and read
// seq) may need a read, and that happens in the background.
func (t *timeline) setViewer(v string) tea.Cmd {
	if v == t.viewer {
		return nil
	}
	if v == t.compareAs {
		// Comparing someone with themselves shows nothing: swap the sides.
		t.compareAs, t.lastCompared = t.viewer, t.viewer
	}
	t.viewer = v
	t.winReq = 0
	if w, ok := t.wins[v]; ok {
		return tea.Batch(t.applyWindow(w), t.restartDiffs())
	}
	t.diffs = diffScan{}
	t.winOK = false
	t.winReq = t.e.newReq()
	return loadWindow(t.e, t.winReq, v, t.base)
}

// setCompare turns the compare view on against id. Their window is read in
// the background: seqs outside it are what they cannot see at all.
func (t *timeline) setCompare(id string) tea.Cmd {
	t.compareAs, t.lastCompared = id, id
	t.compareReq = 0
	if _, ok := t.wins[id]; ok || id == "" {
		return t.restartDiffs()
	}
	t.diffs = diffScan{}
	t.compareReq = t.e.newReq()
	return loadWindow(t.e, t.compareReq, id, t.base)
}

// stopCompare leaves the compare view.
func (t *timeline) stopCompare() {
	t.compareAs, t.diffOnly, t.diffs = "", false, diffScan{}
}

// outsideWindow reports seq beyond the window known for viewer (false
// while it is not known).
func (t *timeline) outsideWindow(viewer string, seq int64) bool {
	w, ok := t.wins[viewer]
	return ok && (seq < max(1, w.MinSeq) || seq > w.MaxSeq)
}

// windowLoaded applies a viewer's window the timeline waited for.
func (t *timeline) windowLoaded(msg windowLoadedMsg) tea.Cmd {
	t.wins[msg.viewer] = msg.win
	if msg.viewer != t.viewer {
		if msg.viewer == t.compareAs {
			return t.restartDiffs()
		}
		return nil
	}
	return tea.Batch(t.applyWindow(msg.win), t.restartDiffs())
}

func (t *timeline) applyWindow(w store.Window) tea.Cmd {
	// The held buckets stay; only the bounds and the read line change. A
	// window that reaches past what is held is filled by prefetch.
	w.Last = nil
	t.win, t.winOK = w, true
	if t.empty() {
		return nil
	}
	if len(t.buckets) == 0 {
		return t.loadAround(t.maxSeq(), nil)
	}
	if t.lo > store.BucketIndex(t.maxSeq()) || t.hi < store.BucketIndex(t.minSeq()) {
		return t.loadAround(t.maxSeq(), nil)
	}
	t.clampCursor()
	return t.prefetch()
}

// reload re-reads every held bucket, replacing what is held.
func (t *timeline) reload() tea.Cmd {
	idx := t.heldIndexes()
	if len(idx) == 0 {
		return nil
	}
	return t.request(idx, true)
}

// refreshAfterWrite re-reads the held buckets among seqs.
func (t *timeline) refreshAfterWrite(seqs []int64) tea.Cmd {
	seen := map[int64]bool{}
	var idx []int64
	for _, s := range seqs {
		b := store.BucketIndex(s)
		if _, held := t.buckets[b]; held && !seen[b] {
			seen[b] = true
			idx = append(idx, b)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	t.fetched += len(idx)
	return tea.Batch(loadBuckets(t.e, t.readOf(idx, true)), t.restartDiffs())
}

// retry repeats what failed: the first screen, the next bucket or a read
// for quotes.
func (t *timeline) retry() tea.Cmd {
	t.err = nil
	if len(t.buckets) == 0 {
		return t.loadAround(t.cursor, nil)
	}
	return tea.Batch(t.prefetch(), t.readQuoted())
}

// jumpTo moves the cursor to seq, re-reading around it when not held. A
// jump still being resolved is dropped: this one is newer.
func (t *timeline) jumpTo(seq int64) tea.Cmd {
	t.jumpReq = 0
	seq = max(t.minSeq(), min(t.maxSeq(), seq))
	_, inGap := t.gapAt(store.BucketIndex(seq))
	if _, _, ok := t.slot(seq); ok || inGap {
		t.cursor = seq
		t.clampCursor()
		t.trim()
		return tea.Batch(t.prefetch(), t.readQuoted())
	}
	return t.loadAround(seq, nil)
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
