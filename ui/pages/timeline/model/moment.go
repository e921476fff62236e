package model

import (
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
)

// A moment: the rows are what the viewer's pull gave at it, the window
// and each slot read back by projection.Then, which a read works out from
// the whole conversation (ReadMoment). Setting one (AtMoment) is a key of
// the queue, so the keys after it move in the window then; a viewer
// switched to, or a compare view's second side, is read back to its own
// moment the same way.

// side is one viewer at one moment (ms; 0: now).
type side struct {
	viewer string
	at     int64
}

func sideOf(v View) side { return side{v.Viewer, millis(v.At)} }

// millis is t in unix ms, 0 for the zero time (now).
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// moments are the moment shown and the windows then read so far.
type moments struct {
	at      int64 // the moment shown, unix ms; 0: now
	thens   map[side]projection.Then
	pending map[side]bool
}

// Moments answers what the moments are: the page draws the rows then.
type Moments struct{ m *Model }

// Moment is the moment's state.
func (m *Model) Moment() Moments { return Moments{m} }

// At is the moment shown, unix ms; 0: now.
func (ms Moments) At() int64 { return ms.m.mo.at }

// Then is the viewer's window then and how its slots read back, when a
// moment is shown.
func (ms Moments) Then() (projection.Then, bool) {
	m := ms.m
	if m.mo.at == 0 {
		return projection.Then{}, false
	}
	t, ok := m.mo.thens[side{m.viewer, m.mo.at}]
	return t, ok
}

// Of is v's window then, when v is at a moment and it is read.
func (ms Moments) Of(v View) (projection.Then, bool) {
	s := sideOf(v)
	if s.at == 0 {
		return projection.Then{}, false
	}
	t, ok := ms.m.mo.thens[s]
	return t, ok
}

// View projects st as v sees it: now, or read back to v's moment.
func (ms Moments) View(v View, st bucket.StoredSlot, docID string, lookup bucket.Lookup) projection.Message {
	if t, ok := ms.Of(v); ok {
		msg, _ := t.View(st, docID, lookup)
		return msg
	}
	return projection.View(st, docID, v.Viewer, ms.m.cfg.Conv, lookup)
}

// Main is the side shown: the viewer at the moment.
func (ms Moments) Main() View {
	m := ms.m
	v := View{Viewer: m.viewer}
	if m.mo.at != 0 {
		v.At = time.UnixMilli(m.mo.at)
	}
	return v
}

// window is v's window: now, or then.
func (ms Moments) window(v View) bucket.Window {
	m, s := ms.m, sideOf(v)
	if s.at == 0 {
		return m.windows[s.viewer]
	}
	return m.mo.thens[s].Window
}

// known reports v's window read, or says what to wait for; second: v is
// the compare view's second side.
func (ms Moments) known(v View, second bool) (wait, bool) {
	m, s := ms.m, sideOf(v)
	if _, ok := m.windows[s.viewer]; !ok && s.at == 0 {
		return wait{window: s.viewer, second: second}, false
	}
	if _, ok := m.mo.thens[s]; !ok && s.at != 0 {
		return wait{moment: &s}, false
	}
	return wait{}, true
}

// applyMoment shows s.At (0: now) once the viewer's window then is read,
// then puts the cursor on the row holding its seq in the window then.
func applyMoment(m *Model, s *step) (wait, bool) {
	v := View{Viewer: m.viewer}
	if s.At != 0 {
		v.At = time.UnixMilli(s.At)
	}
	if w, ok := m.Moment().known(v, false); !ok {
		return w, false
	}
	if m.mo.at != s.At {
		m.mo.at = s.At
		if m.cmp.on && sideOf(m.cmp.view) == sideOf(v) {
			m.cmp.stop() // the second side is now the first: nothing to compare
		}
		m.cmp.restart(m.Window())
		m.srch.drop() // its hits are what the rows were
	}
	s.Kind, s.Viewer = ViewAs, m.viewer
	return m.applyViewer(s)
}

// tookMoment keeps a window then read.
func (ms Moments) took(l Landed) {
	m := ms.m
	s := side{l.Read.Viewer, l.Read.At}
	delete(m.mo.pending, s)
	if l.Err != nil {
		m.fail(l.Err)
		return
	}
	m.mo.thens[s] = l.Then
}
