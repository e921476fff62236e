package model

import (
	"errors"
	"fmt"
)

// Jumps typed at ':': to a seq, refused outside the window with why, or
// to the first message sent at or after a date, which a read finds. Both
// wait in the queue like every key, so they jump in the window of the
// viewer the keys before them left.

// dateQuestion is a date jump's read: the first seq from..to sent at or
// after at.
type dateQuestion struct{ at, from, to int64 }

type dateAnswer struct {
	seq int64
	err error
}

// errNoDate is a date jump's answer when no message is sent at or after it.
var errNoDate = errors.New("no message sent at or after that time")

// applyJump does a typed jump.
func applyJump(m *Model, s *step) (wait, bool) {
	r := m.rules()
	if r.none() {
		m.note = &Note{Kind: NoteNothing}
		return wait{}, true
	}
	if s.Kind == SeqJump {
		if s.Seq < r.min || s.Seq > r.max {
			m.note = &Note{Kind: NoteOutside, Seq: s.Seq}
			return wait{}, true
		}
		s.Kind = Jump
		return m.apply(s)
	}
	q := dateQuestion{s.At, r.min, r.max}
	a, ok := m.dates[q]
	switch {
	case !ok:
		return wait{date: &q}, false
	case a.err == nil && a.seq == 0:
		a.err = errNoDate
		fallthrough
	case a.err != nil:
		m.note = &Note{Kind: NoteJumpFailed, Err: a.err}
		return wait{}, true
	}
	m.note = textNote(fmt.Sprintf("jumped to seq %d", a.seq))
	s.Kind, s.Seq = Jump, a.seq
	return m.apply(s)
}
