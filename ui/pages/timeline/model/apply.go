package model

import "github.com/chatlens/chatlens/store/bucket"

// wait is what a key waits on: a bucket (with how many to read ahead the
// way it goes), the members, or a viewer's window.
type wait struct {
	bucket  *need
	ahead   int
	rows    bool  // a row key waits: read ahead as far as the queued rows go
	around  int64 // a jump waits on the row holding this seq: its bucket, the one before and, near its end, the one after
	members bool
	window  string
	second  bool  // window: of the compare view's second side
	scan    bool  // the compare view's scan must go on
	search  bool  // the search must go on
	moment  *side // a viewer's window at a moment
	date    *dateQuestion
}

// apply does what is left of s; done is false when it must wait, with what
// it waits on.
func (m *Model) apply(s *step) (wait, bool) {
	if s.Kind == AtMoment {
		return applyMoment(m, s)
	}
	if s.Kind == Grow && !s.grown {
		return applyGrow(m, s)
	}
	if s.Kind >= SeqJump && s.Kind != Grow {
		return applyJump(m, s)
	}
	if s.Kind >= SearchFor {
		return m.srch.apply(m, s)
	}
	if s.Kind >= CompareOn || m.cmp.Only() && rowKey(s.Kind) {
		return m.applyCompare(s)
	}
	r := m.rules()
	if r.none() && s.Kind != CycleViewer && s.Kind != ViewAs && s.Kind != Boundaries {
		return wait{}, true // nothing to move over
	}
	switch s.Kind {
	case Boundaries:
		m.boundaries = !m.boundaries
		s.Kind, s.Seq = Jump, m.cursor // the cursor's row may now start elsewhere
		return m.apply(s)
	case Down, Up, PageDown, PageUp:
		return m.applyRows(r, s)
	case Top:
		m.cursor = r.min
		return wait{}, true
	case Bottom, Jump:
		at := r.max
		if s.Kind == Jump {
			at = max(r.min, min(r.max, s.Seq))
		}
		row, n := r.rowStart(&m.k, at)
		if n != nil {
			return wait{bucket: n, ahead: 2, around: at}, false // the screen around it too, in the same find
		}
		m.cursor = row
		return wait{}, true
	case NextMessage, PrevMessage:
		dir := int64(1)
		if s.Kind == PrevMessage {
			dir = -1
		}
		seq, ok, n := r.messageAfter(&m.k, m.cursor, dir)
		switch {
		case n != nil:
			return wait{bucket: n, ahead: m.cfg.Batch}, false
		case ok:
			m.cursor = seq
		case dir > 0:
			m.note = textNote("no message after this one")
		default:
			m.note = textNote("no message before this one")
		}
		return wait{}, true
	case CycleViewer:
		if m.members == nil {
			return wait{members: true}, false
		}
		if len(m.members) == 0 {
			m.note = textNote("no members known")
			return wait{}, true
		}
		next := m.members[0]
		for i, id := range m.members {
			if id == m.viewer {
				next = m.members[(i+1)%len(m.members)]
			}
		}
		s.Kind, s.Viewer = ViewAs, next
		return m.apply(s)
	case ViewAs:
		return m.applyViewer(s)
	}
	return wait{}, true
}

// applyRows moves the cursor row by row; a page move takes the top along
// by as many rows, waiting for them to be read.
func (m *Model) applyRows(r rules, s *step) (wait, bool) {
	down := s.Kind == Down || s.Kind == PageDown
	page := s.Kind == PageDown || s.Kind == PageUp
	if page && !s.topSet {
		s.topFrom, s.topSet = m.top, true
		if m.top < r.min || m.top > m.cursor {
			s.topFrom = m.cursor // a top from another window, or below the cursor
		}
	}
	for s.rows > 0 {
		var (
			next int64
			ok   bool
			n    *need
		)
		if down {
			next, ok, n = r.next(&m.k, m.cursor)
		} else {
			next, ok, n = r.prev(&m.k, m.cursor)
		}
		if n != nil {
			return wait{bucket: n, rows: true}, false
		}
		if !ok {
			break // the end of the window: the rest of the key is spent
		}
		m.cursor, s.rows, s.moved = next, s.rows-1, s.moved+1
	}
	if page {
		top, n := m.rowsFrom(r, s.topFrom, s.moved, down)
		if n != nil {
			return wait{bucket: n, ahead: 1}, false
		}
		m.top = min(top, m.cursor)
	}
	return wait{}, true
}

// aheadFor is how many buckets to read at once for rows still to move:
// what they cross, one at least, never more than a screen needs at a time.
func aheadFor(rows int) int {
	return max(1, min(3, (rows+bucket.BucketSize-1)/bucket.BucketSize))
}

// rowsFrom walks n rows from row, saying what it needs to read; it stops
// at the ends of the window.
func (m *Model) rowsFrom(r rules, row int64, n int, down bool) (int64, *need) {
	for ; n > 0; n-- {
		var (
			next int64
			ok   bool
			nd   *need
		)
		if down {
			next, ok, nd = r.next(&m.k, row)
		} else {
			next, ok, nd = r.prev(&m.k, row)
		}
		if nd != nil {
			return row, nd
		}
		if !ok {
			break
		}
		row = next
	}
	return row, nil
}

// applyViewer switches to s.Viewer once their window is read, then puts
// the cursor on the row holding its seq in their window.
func (m *Model) applyViewer(s *step) (wait, bool) {
	if !s.viewer {
		if _, ok := m.windows[s.Viewer]; !ok {
			return wait{window: s.Viewer}, false
		}
		main := m.Moment().Main()
		main.Viewer = s.Viewer // the moment stays
		if w, ok := m.Moment().known(main, false); !ok {
			return w, false
		}
		second := m.cmp.view
		switch second.Viewer {
		case m.viewer:
			second.Viewer = s.Viewer // one viewer at two moments: the second side follows
		case s.Viewer:
			second.Viewer = m.viewer // the sides swap: no one is compared with themselves
		}
		if m.cmp.on {
			if w, ok := m.Moment().known(second, true); !ok {
				return w, false
			}
		}
		if s.Viewer != m.viewer {
			m.cmp.view = second
			m.viewer = s.Viewer
			m.cmp.restart(m.Window())
			m.srch.drop() // its hits are what the last viewer sees
		}
		s.viewer = true
	}
	r := m.rules()
	if r.none() {
		return wait{}, true
	}
	row, n := r.rowStart(&m.k, max(r.min, min(r.max, m.cursor)))
	if n != nil {
		return wait{bucket: n, ahead: 1}, false
	}
	m.cursor = row
	return wait{}, true
}
