package model

import (
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// ask turns what the model waits on into reads not already in flight.
func (p planner) ask(ws ...wait) []Read {
	m := p.m
	var out []Read
	for _, w := range ws {
		out = append(out, m.plan().askOne(w)...)
	}
	return out
}

func (p planner) askOne(w wait) []Read {
	m := p.m
	var out []Read
	if w.members && !m.membersPending {
		m.membersPending = true
		out = append(out, Read{Kind: ReadMembers, Gen: m.gen})
	}
	if w.date != nil && !m.datePending[*w.date] {
		m.datePending[*w.date] = true
		out = append(out, Read{Kind: ReadDate, At: w.date.at, From: w.date.from, To: w.date.to, Gen: m.gen})
	}
	if w.moment != nil && !m.mo.pending[*w.moment] {
		m.mo.pending[*w.moment] = true
		out = append(out, Read{Kind: ReadMoment, Viewer: w.moment.viewer, At: w.moment.at, Gen: m.gen})
	}
	if w.window != "" && !m.windowPending[w.window] {
		m.windowPending[w.window] = true
		out = append(out, Read{Kind: ReadWindow, Viewer: w.window, Second: w.second, Gen: m.gen})
	}
	if w.bucket != nil && w.around > 0 && bucket.BucketIndex(w.around) == w.bucket.index {
		if r, ok := m.plan().bucketsAround(w.around); ok {
			return append(out, r)
		}
	}
	if w.bucket != nil {
		if r, ok := m.plan().bucketsFrom(w.bucket.index, w.bucket.dir, w.ahead); ok {
			out = append(out, r)
		}
	}
	return out
}

// bucketsFrom reads, of the n buckets from idx in direction dir inside the
// window, those neither read nor in flight, in one find.
func (p planner) bucketsFrom(idx, dir int64, n int) (Read, bool) {
	m := p.m
	r := m.rules()
	lo, hi := bucket.BucketIndex(r.min), bucket.BucketIndex(r.max)
	var indexes []int64
	for i, step := idx, 0; step < n && i >= lo && i <= hi; i, step = i+dir, step+1 {
		if !m.pending[i] && !m.k.knows(i) {
			indexes = append(indexes, i)
		}
	}
	if len(indexes) == 0 {
		return Read{}, false
	}
	for _, i := range indexes {
		m.pending[i] = true
	}
	return Read{Kind: ReadBuckets, Indexes: indexes, Dir: dir, Gen: m.gen}, true
}

// bucketsAround reads, in one find, the bucket of seq, the one before it
// and, when seq is near its end, the one after: the screen around a jump.
// A run of buckets not stored before it is followed down to the nearest
// stored one.
func (p planner) bucketsAround(seq int64) (Read, bool) {
	m := p.m
	b := bucket.BucketIndex(seq)
	r := m.rules()
	lo, hi := bucket.BucketIndex(r.min), bucket.BucketIndex(r.max)
	var indexes []int64
	if bucket.LastSeq(b)-seq <= nearEnd {
		indexes = append(indexes, b+1)
	}
	indexes = append(indexes, b, b-1)
	indexes = slices.DeleteFunc(indexes, func(i int64) bool { return i < lo || i > hi || m.pending[i] || m.k.knows(i) })
	if len(indexes) == 0 {
		return Read{}, false
	}
	for _, i := range indexes {
		m.pending[i] = true
	}
	return Read{Kind: ReadBuckets, Indexes: indexes, Dir: -1, Gen: m.gen}, true
}

// nearEnd is how close to the end of its bucket a jump lands for the
// bucket after it to be read with it: within a screen of rows.
const nearEnd = 50

// aroundCursor is what the screen needs next: the rows on either side of
// the cursor's, and of the top's, read before a key asks for them.
func (p planner) aroundCursor() []wait {
	m := p.m
	r := m.rules()
	if r.none() {
		return nil
	}
	var out []wait
	for _, row := range []int64{m.cursor, m.top} {
		if row < r.min || row > r.max {
			continue
		}
		next, ok, n := r.next(&m.k, row)
		if n == nil && ok && m.k.kindAt(next) == unknown {
			n = &need{bucket.BucketIndex(next), 1} // the row below starts in a bucket not read
		}
		if n != nil {
			out = append(out, wait{bucket: &need{n.index, 1}, ahead: 1})
		}
		if _, _, n := r.prev(&m.k, row); n != nil {
			out = append(out, wait{bucket: &need{n.index, -1}, ahead: 1})
		}
	}
	// One bucket beyond the cursor's on each side, so a held key never
	// waits on a read.
	for _, dir := range []int64{-1, 1} {
		if idx, ok := m.plan().unitBeyond(bucket.BucketIndex(m.cursor), dir); ok {
			out = append(out, wait{bucket: &need{idx, dir}, ahead: 1})
		}
	}
	return out
}

// unitBeyond is the first bucket not read past the unit holding idx (a
// bucket, or a run of buckets not stored or of holes only), when it is
// the next unit and inside the window.
func (p planner) unitBeyond(idx, dir int64) (int64, bool) {
	m := p.m
	r := m.rules()
	lo, hi := bucket.BucketIndex(r.min), bucket.BucketIndex(r.max)
	next := idx + dir
	for _, set := range []spans{m.k.absent, m.k.empty} {
		if sp, ok := set.find(idx); ok {
			next = sp.hi + 1
			if dir < 0 {
				next = sp.lo - 1
			}
		}
	}
	if next < lo || next > hi || m.k.knows(next) {
		return 0, false
	}
	return next, true
}

// planner decides what the model reads next and what it lets go of: the
// reads a waiting key or the screen needs, and the buckets far from the
// cursor dropped.
type planner struct{ m *Model }

func (m *Model) plan() planner { return planner{m} }
