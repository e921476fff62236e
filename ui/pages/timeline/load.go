package timeline

import (
	"maps"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store/bucket"
)

// Reading the timeline's buckets: the first screen, the buckets around the
// cursor as it moves, the ones dropped behind it, and again after a write.

// Open fills the first screen: the newest bucket the list already read and
// the one before it, in one find.
func (t *Model) Open() tea.Cmd {
	newest := t.newest
	t.newest = nil // held from now on, or not needed
	if t.empty() {
		return nil
	}
	if newest != nil && newest.Index != bucket.BucketIndex(t.cursor) {
		newest = nil // the window ends before it (a cap, an empty bucket)
	}
	return t.loadAround(t.cursor, newest)
}

// loadAround drops what is held and reads the buckets around seq but have,
// buckets already read (seq's, and those beside it that join it).
func (t *Model) loadAround(seq int64, have ...*bucket.Bucket) tea.Cmd {
	t.req, t.queued = t.e.NewReq(), 0
	t.buckets, t.pending, t.err, t.gaps = map[int64]*bucket.Bucket{}, map[int64]bool{}, nil, nil
	t.quoted, t.quotePending = map[int64]bucket.StoredSlot{}, map[int64]bool{}
	t.cursor, t.top = seq, seq
	b := bucket.BucketIndex(seq)
	byIndex := map[int64]*bucket.Bucket{}
	for _, h := range have {
		if h != nil {
			byIndex[h.Index] = h
		}
	}
	if h := byIndex[b]; h != nil {
		t.buckets[b], t.lo, t.hi = h, b, b
		if h := byIndex[b-1]; h != nil {
			t.buckets[b-1], t.lo = h, b-1
		}
		if h := byIndex[b+1]; h != nil {
			t.buckets[b+1], t.hi = h, b+1
		}
		t.clampCursor()
	}
	var idx []int64
	for i := max(b-1, bucket.BucketIndex(t.minSeq())); i <= min(b+1, bucket.BucketIndex(t.maxSeq())); i++ {
		if i == b+1 && bucket.LastSeq(b)-seq > 50 {
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

func (t *Model) request(idx []int64, refresh bool) tea.Cmd {
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
func (t *Model) readOf(idx []int64, refresh bool) bucketRequest {
	have := make(map[int64]bool, len(t.buckets))
	for i := range t.buckets {
		have[i] = true
	}
	haveSeqs := make(map[int64]bool, len(t.quoted))
	for seq := range t.quoted {
		haveSeqs[seq] = true
	}
	return bucketRequest{req: t.req, cid: t.cid, indexes: idx, minSeq: t.minSeq(), maxSeq: t.maxSeq(),
		refresh: refresh, have: have, haveSeqs: haveSeqs}
}

// loaded takes a bucket reply. Buckets that no longer join the held run
// (the cursor jumped away meanwhile) are dropped rather than kept as islands.
func (t *Model) loaded(msg bucketsLoadedMsg) tea.Cmd {
	if msg.req != t.req {
		return nil // a late reply for a view already left
	}
	for _, i := range msg.indexes {
		delete(t.pending, i)
	}
	for _, seq := range msg.quotedSeqs {
		delete(t.quotePending, seq)
	}
	if msg.err != nil {
		t.err, t.queued = msg.err, 0 // the rows beyond cannot be reached: the error says why
		return nil
	}
	if msg.quotedSeqs == nil { // a quotes-only read retries nothing else
		t.err = nil
	}
	maps.Copy(t.quoted, msg.quoted)
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
	var moved tea.Cmd
	if t.queued != 0 {
		moved = t.move(0, false) // the keys pressed while this was read
	}
	return tea.Batch(drop, moved, t.prefetch(), t.readQuoted())
}

// prefetch asks for the next bucket in either direction as soon as the
// cursor, or the top of the screen above it, enters the last held one, so
// it is there before it is needed: a held key never waits on a read.
func (t *Model) prefetch() tea.Cmd {
	if len(t.buckets) == 0 || t.err != nil {
		return nil
	}
	// The units of the top row and the cursor: a bucket, or the gap a row stands for.
	lo, hi := bucket.BucketIndex(min(t.top, t.cursor)), bucket.BucketIndex(t.cursor)
	if g, ok := t.gapAt(lo); ok {
		lo = g.lo
	}
	if g, ok := t.gapAt(hi); ok {
		hi = g.hi
	}
	var cmds []tea.Cmd
	if lo-1 < t.lo && t.lo > bucket.BucketIndex(t.minSeq()) && !t.pending[t.lo-1] {
		cmds = append(cmds, t.readAhead(-1))
	}
	if hi+1 > t.hi && t.hi < bucket.BucketIndex(t.maxSeq()) && !t.pending[t.hi+1] {
		cmds = append(cmds, t.readAhead(1))
	}
	return tea.Batch(cmds...)
}

// readAhead reads the bucket past the end of the run in direction dir, or,
// when queued keys go further, the buckets they need (up to keepBuckets,
// what trim keeps) in one find, so a burst waits on one round trip however
// many bucket edges it crosses.
func (t *Model) readAhead(dir int64) tea.Cmd {
	edge, limit := t.lo, bucket.BucketIndex(t.minSeq())
	if dir > 0 {
		edge, limit = t.hi, bucket.BucketIndex(t.maxSeq())
	}
	n := int64(1)
	if t.queued*dir > 0 {
		n = min(keepBuckets, (t.queued*dir+bucket.BucketSize-1)/bucket.BucketSize)
	}
	var idx []int64
	for i := edge + dir; int64(len(idx)) < n && (i-limit)*dir <= 0 && !t.pending[i]; i += dir {
		idx = append(idx, i)
	}
	if len(idx) == 1 {
		return t.requestEdge(idx[0], dir < 0) // past a run of missing buckets in one step
	}
	return t.request(idx, false)
}

// trim drops buckets (and gaps) far from the cursor, keepBuckets of them
// on each side, keeping aside those that quotes still held quote.
func (t *Model) trim() {
	units := t.units()
	cb := bucket.BucketIndex(t.cursor)
	at := slices.IndexFunc(units, func(u gap) bool { return cb >= u.lo && cb <= u.hi })
	if at < 0 {
		return
	}
	dropped := map[int64]*bucket.Bucket{}
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

// Reload re-reads every held bucket, replacing what is held.
func (t *Model) Reload() tea.Cmd {
	idx := t.heldIndexes()
	if len(idx) == 0 {
		return nil
	}
	return t.request(idx, true)
}

// RefreshAfterWrite re-reads the held buckets among seqs.
func (t *Model) RefreshAfterWrite(seqs []int64) tea.Cmd {
	seen := map[int64]bool{}
	var idx []int64
	for _, s := range seqs {
		b := bucket.BucketIndex(s)
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

// Retry repeats what failed: the first screen, the next bucket or a read
// for quotes.
func (t *Model) Retry() tea.Cmd {
	t.err = nil
	if len(t.buckets) == 0 {
		return t.loadAround(t.cursor)
	}
	return tea.Batch(t.prefetch(), t.readQuoted())
}
