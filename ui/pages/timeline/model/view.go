package model

import (
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// What the page draws: the rows read so far, walked from the top.

// RowKind is what a row stands for.
type RowKind int

const (
	RowMessage RowKind = iota // one seq holding a message, or a slot that breaks the contract
	RowHoles                  // a run of plain holes (one seq or many)
	RowGap                    // a run of buckets not stored
)

// Row is one row of the timeline: seqs First..Last. Open says the run
// goes on past what is read, so Last is only as far as is known.
type Row struct {
	Kind        RowKind
	First, Last int64
	Open        bool
}

// RowAt is the row starting at seq, as far as what is read tells; false
// when seq's bucket is not read, or seq starts no row.
func (rs Rows) At(seq int64) (Row, bool) {
	m := rs.m
	r := m.rules()
	if r.none() || seq < r.min || seq > r.max {
		return Row{}, false
	}
	start, n := r.rowStart(&m.k, seq)
	if n != nil || start != seq {
		return Row{}, false
	}
	row := Row{First: seq, Last: seq}
	switch m.k.kindAt(seq) {
	case message:
		return row, true
	case absent:
		row.Kind = RowGap
	default:
		row.Kind = RowHoles
	}
	end, n := r.rowEnd(&m.k, seq)
	if n != nil {
		row.Last, row.Open = m.Rows().knownEnd(r, seq), true
	} else {
		row.Last = end
	}
	return row, true
}

// knownEnd is the last seq of the run at seq that is read.
func (rs Rows) knownEnd(r rules, seq int64) int64 {
	m := rs.m
	if m.k.kindAt(seq) == absent {
		sp, _ := m.k.absent.find(bucket.BucketIndex(seq))
		return min(bucket.LastSeq(sp.hi), r.max)
	}
	for seq < r.max && m.k.kindAt(seq+1) == hole && !r.lineBefore(&m.k, seq+1) {
		seq = max(seq+1, r.runForward(&m.k, seq+1))
	}
	return seq
}

// Next is the row after the one starting at row, when it is read.
func (rs Rows) Next(row int64) (int64, bool) {
	m := rs.m
	next, ok, n := m.rules().next(&m.k, row)
	return next, ok && n == nil && m.k.kindAt(next) != unknown
}

// Prev is the row before the one starting at row, when it is read.
func (rs Rows) Prev(row int64) (int64, bool) {
	m := rs.m
	prev, ok, n := m.rules().prev(&m.k, row)
	return prev, ok && n == nil
}

// ReadFrom and ReadTo are the first and last rows read around the cursor:
// the run of known rows holding it.
func (rs Rows) ReadFrom() int64 { return rs.lastRead(rs.Prev) }

func (rs Rows) ReadTo() int64 { return rs.lastRead(rs.Next) }

// lastRead walks from the cursor with step while the rows are read.
func (rs Rows) lastRead(step func(int64) (int64, bool)) int64 {
	m := rs.m
	row := m.cursor
	for {
		next, ok := step(row)
		if !ok {
			return row
		}
		row = next
	}
}

// MoreAbove reports rows above the first one read: the window goes on.
func (rs Rows) MoreAbove(row int64) bool {
	m := rs.m
	r := m.rules()
	_, _, n := r.prev(&m.k, row)
	return n != nil
}

// Know takes what the page read elsewhere: buckets, a viewer's window,
// the members.
type Know struct{ m *Model }

// Know is what the page read elsewhere, given to the model.
func (m *Model) Know() Know { return Know{m} }

// Buckets takes buckets read elsewhere (the list's newest, the buckets a
// search step read around its hits) as if a read of them had landed; the
// key or Settle that follows uses them.
func (k Know) Buckets(bs ...*bucket.Bucket) {
	m := k.m
	for _, b := range bs {
		if b != nil {
			m.k.take(b)
		}
	}
}

// Refresh is a read of the held buckets among indexes (a write changed
// them); it replaces them as it lands. False when none is held.
func (m *Model) Refresh(indexes []int64) (Read, bool) {
	var idx []int64
	for _, i := range indexes {
		if m.k.buckets[i] != nil && !slices.Contains(idx, i) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return Read{}, false
	}
	return Read{Kind: ReadBuckets, Indexes: idx, Gen: m.gen}, true
}

// WindowOf is viewer's window, when the model knows it (read, or given).
func (m *Model) WindowOf(viewer string) (bucket.Window, bool) {
	w, ok := m.windows[viewer]
	return w, ok
}

// Forget lets viewer's window go, to be read again when next needed; the
// windows of the viewer and of the compare view's second side stay.
func (k Know) Forget(viewer string) {
	m := k.m
	if viewer != m.viewer && (!m.cmp.on || m.cmp.view.Viewer != viewer) {
		delete(m.windows, viewer)
	}
}

// Window takes a viewer's window read elsewhere (their list brought
// it), so switching to them reads nothing.
func (k Know) Window(viewer string, w bucket.Window) { k.m.windows[viewer] = w }

// Members takes the members, in the picker's order, once the page has
// read them (for V, or for the picker or the inspector before it).
func (k Know) Members(ids []string) []Read {
	m := k.m
	m.members = append([]string{}, ids...)
	return m.run()
}

// Rows answers what the rows read so far are: the page walks them to draw.
type Rows struct{ m *Model }

// Rows is the rows read so far, to walk for drawing.
func (m *Model) Rows() Rows { return Rows{m} }
