package model

import "github.com/chatlens/chatlens/store/bucket"

// Follow's new messages: the seq the conversation ends at moves on, and
// every window known grows to it, as a key of the queue, so the cursor
// that was on the newest row when the keys before it were applied goes on
// to the newest.

// Grown is w once the conversation ends at end: a window capped before
// the end (a member who left) keeps its cap.
func Grown(w bucket.Window, end int64) bucket.Window {
	w.EndSeq = end
	if w.CapSeq == 0 {
		w.MaxSeq = end
	}
	return w
}

// applyGrow grows the windows to s.Seq and forgets the buckets that
// gained messages, read again as the rows need them; then, when the
// cursor was on the newest row, it goes on to the newest (Bottom).
func applyGrow(m *Model, s *step) (wait, bool) {
	s.grown = true
	old := m.Window().EndSeq
	if s.Seq <= old {
		return wait{}, true
	}
	tailing := m.cursor == m.Window().MaxSeq
	for v, w := range m.windows {
		m.windows[v] = Grown(w, s.Seq)
	}
	lo, hi := bucket.BucketIndex(old+1), bucket.BucketIndex(m.Window().MaxSeq)
	for i := lo; i <= hi; i++ {
		m.k.forget(i)
	}
	m.k.empty = m.k.empty.remove(lo, hi)
	m.k.absent = m.k.absent.remove(lo, hi)
	if !tailing || m.rules().none() {
		return wait{}, true
	}
	s.Kind = Bottom
	return m.apply(s)
}
