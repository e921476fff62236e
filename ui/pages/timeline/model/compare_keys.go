package model

// applyCompare does the compare view's keys, and the row keys of
// "differences only", where each row is a difference. A key whose answer
// the scan has not settled yet waits for it, with every key after it.
func (m *Model) applyCompare(s *step) (wait, bool) {
	c := &m.cmp
	jump := func(seq int64) (wait, bool) {
		s.Kind, s.Seq = Jump, seq
		return m.apply(s)
	}
	scan := wait{scan: true}
	switch s.Kind {
	case ToggleCompare:
		s.Kind = CompareOn
		if c.on {
			s.Kind = CompareOff
		}
		return m.applyCompare(s)
	case CompareOff:
		c.stop()
		return wait{}, true
	case CompareOn:
		v := s.View
		if v.Viewer == "" || sideOf(v) == sideOf(m.Moment().Main()) {
			c.stop() // comparing someone with themselves shows nothing
			return wait{}, true
		}
		if w, ok := m.Moment().known(v, true); !ok {
			return w, false
		}
		c.on, c.view = true, s.View
		c.start(m.Window())
		return wait{}, true
	}
	if !c.on {
		m.note = &Note{Kind: NoteNotComparing}
		return wait{}, true
	}
	switch s.Kind {
	case DiffOnly:
		if !s.toggled {
			c.only, s.toggled = !c.only, true
		}
		if !c.only {
			return wait{}, true
		}
		if c.scanning && m.cursor < c.from {
			return scan, false
		}
		if c.RunAt(m.cursor) >= 0 {
			return wait{}, true
		}
		switch r, ok, w := c.target(m.cursor, -1); {
		case w:
			return scan, false
		case ok:
			return jump(r.From)
		}
		s.Kind, s.noWrap = NextDiff, true
		return m.applyCompare(s)
	case NextDiff, PrevDiff:
		dir := 1
		if s.Kind == PrevDiff {
			dir = -1
		}
		r, ok, w := c.target(m.cursor, dir)
		switch {
		case w:
			return scan, false
		case ok:
			return jump(r.From)
		case c.scanning: // a wrap, or none at all, needs the whole scan
			return scan, false
		case c.err != nil:
			m.note = &Note{Kind: NoteScanFailed, Err: c.err}
		case len(c.runs) == 0 && c.beyond(m.Window(), m.Moment().window(c.view)) > 0:
			m.note = &Note{Kind: NoteOnlyBeyond}
		case len(c.runs) == 0:
			m.note = &Note{Kind: NoteAlike, A: m.viewer, B: c.view.Viewer}
		case s.noWrap:
		case dir < 0:
			m.note = textNote("no older difference: wrapped to the newest")
			return jump(c.runs[len(c.runs)-1].From)
		default:
			m.note = textNote("no newer difference: wrapped to the oldest")
			return jump(c.runs[0].From)
		}
		return wait{}, true
	}
	// A row key of "differences only": up and down step between them.
	if c.scanning && (len(c.runs) == 0 || m.cursor < c.from) {
		return scan, false
	}
	n := len(c.runs)
	if n == 0 {
		return wait{}, true
	}
	delta := s.rows
	switch s.Kind {
	case Up, PageUp:
		delta = -s.rows
	case Top:
		delta = -n
	case Bottom:
		delta = n
	}
	i := c.RunAt(m.cursor)
	if i < 0 {
		s.Kind, s.noWrap = NextDiff, true
		if delta < 0 {
			s.Kind = PrevDiff
		}
		return m.applyCompare(s)
	}
	j := max(0, min(n-1, i+delta))
	if c.scanning && j == 0 {
		return scan, false // older ones may come
	}
	return jump(c.runs[j].From)
}

// rowKey reports a key that moves between rows: in "differences only",
// between differences.
func rowKey(k Kind) bool {
	switch k {
	case Down, Up, PageDown, PageUp, Top, Bottom:
		return true
	}
	return false
}
