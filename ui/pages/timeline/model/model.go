package model

import (
	"slices"

	"github.com/chatlens/chatlens/projection"

	"github.com/chatlens/chatlens/store/bucket"
)

// Config is what the page settles once.
type Config struct {
	Keep  int             // buckets held on each side of the cursor's, for the screen and the reads ahead
	Batch int             // buckets one read may ask for when a key goes far (the next message)
	Conv  projection.Conv // what the compare view's scan projects for
}

// Model is the open conversation's data half: see the package doc.
type Model struct {
	cfg        Config
	gen        int
	k          known
	viewer     string
	windows    map[string]bucket.Window
	members    []string // nil until read
	boundaries bool
	page       int // rows a page key moves

	cursor, top int64
	queue       []step
	err         error
	note        *Note
	cmp         Compare // the compare view
	srch        searching
	mo          moments

	pending        map[int64]bool
	held           bool // Hold: keys are taken, reads asked for at Release
	dropped        []*bucket.Bucket
	membersPending bool
	windowPending  map[string]bool
	dates          map[dateQuestion]dateAnswer // the date jumps answered
	datePending    map[dateQuestion]bool
}

// New opens the conversation as viewer with their window, the cursor on
// the row holding at (the newest message: win.MaxSeq).
func New(cfg Config, viewer string, win bucket.Window, at int64) *Model {
	m := &Model{cfg: cfg, k: newKnown(), viewer: viewer, windows: map[string]bucket.Window{viewer: win},
		page: 1, pending: map[int64]bool{}, windowPending: map[string]bool{},
		dates: map[dateQuestion]dateAnswer{}, datePending: map[dateQuestion]bool{},
		mo: moments{thens: map[side]projection.Then{}, pending: map[side]bool{}}}
	m.cfg.Keep, m.cfg.Batch = max(1, m.cfg.Keep), max(1, m.cfg.Batch)
	m.cursor, m.top = at, at
	m.queue = []step{{Key: Key{Kind: Jump, Seq: at}}}
	return m
}

// Viewer is whose view the rows are.
func (m *Model) Viewer() string { return m.viewer }

// Window is the viewer's window, at the moment shown.
func (m *Model) Window() bucket.Window { return m.Moment().window(m.Moment().Main()) }

// Cursor is the first seq of the row the cursor is on.
func (m *Model) Cursor() int64 { return m.cursor }

// Top is the first seq of the row the screen starts at.
func (m *Model) Top() int64 { return m.top }

// SetTop is where the page settled the screen's first row.
func (m *Model) SetTop(seq int64) { m.top = seq }

// Waiting is the number of keys not applied yet.
func (m *Model) Waiting() int { return len(m.queue) }

// Err is why the last read failed: the keys that waited on it are dropped
// (the rows beyond cannot be reached, and the error says why) until Retry.
func (m *Model) Err() error { return m.err }

// TakeNote is what the last key had to say ("no message after this one"),
// once, when every key pressed is applied: while keys wait, a later one may
// still have its say (pressed one by one, it would clear the status line).
func (m *Model) TakeNote() (Note, bool) {
	n := m.note
	if n == nil || len(m.queue) > 0 && m.err == nil {
		return Note{}, false
	}
	m.note = nil
	return *n, true
}

// SetPage is how many rows a page key moves.
func (m *Model) SetPage(rows int) { m.page = max(1, rows) }

// Boundaries reports bucket boundaries drawn; a run of holes stops at them.
func (m *Model) Boundaries() bool { return m.boundaries }

// Held is the bucket held at index, nil when none.
func (m *Model) Held(index int64) *bucket.Bucket { return m.k.buckets[index] }

// HeldIndexes lists the held buckets in order.
func (m *Model) HeldIndexes() []int64 {
	out := make([]int64, 0, len(m.k.buckets))
	for i := range m.k.buckets {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// Pending reports reads of buckets in flight.
func (m *Model) Pending() bool { return len(m.pending) > 0 }

// PendingAt reports a read of bucket index in flight.
func (m *Model) PendingAt(index int64) bool { return m.pending[index] }

func (m *Model) rules() rules { return rulesFor(m.Window(), m.boundaries) }

// Press applies a key, or queues it behind the keys still waiting.
func (m *Model) Press(k Key) []Read {
	m.queue = append(m.queue, stepOf(k, m.page))
	return m.run()
}

// Hold takes the keys of a burst (one read of the terminal) without asking
// for reads until Release, which asks once for what all of them need: a
// burst across three bucket edges waits on one find, not three.
func (m *Model) Hold() { m.held = true }

// Release ends Hold and says what to read.
func (m *Model) Release() []Read {
	m.held = false
	return m.run()
}

// Settle applies what can be applied and says what to read, after Know().Buckets.
func (m *Model) Settle() []Read { return m.run() }

// stepOf is k as it waits in the queue, page rows to a page key.
func stepOf(k Key, page int) step {
	s := step{Key: k}
	switch k.Kind {
	case Down, Up:
		s.rows = 1
	case PageDown, PageUp:
		s.rows = page
	case HalfPageDown, HalfPageUp:
		// a page key of half the rows: everything after moves as a page does
		s.Kind, s.rows = PageDown, max(1, page/2)
		if k.Kind == HalfPageUp {
			s.Kind = PageUp
		}
	}
	return s
}

// Land takes a read's answer and applies the keys it lets through.
func (m *Model) Land(l Landed) []Read {
	if (l.Read.Kind == ReadBuckets || l.Read.Kind == ReadScan) && l.Read.Gen != m.gen {
		return nil // buckets read before a reload
	}
	switch l.Read.Kind {
	case ReadSearch:
		m.srch.took(l)
	case ReadMoment:
		m.Moment().took(l)
		if l.Err != nil {
			return nil
		}
	case ReadDate:
		q := dateQuestion{l.Read.At, l.Read.From, l.Read.To}
		delete(m.datePending, q)
		m.dates[q] = dateAnswer{l.Seq, l.Err}
	case ReadScan:
		if l.Read.Scan != m.cmp.scan {
			return nil // a scan already replaced or left
		}
		m.cmp.took(l, m.Window(), m.Moment().window(m.cmp.view), m.Moment())
		if l.Err != nil {
			m.note = &Note{Kind: NoteScanFailed, Err: l.Err}
		}
	case ReadBuckets:
		for _, i := range l.Read.Indexes {
			delete(m.pending, i)
		}
		if l.Err != nil {
			m.fail(l.Err)
			return nil
		}
		for _, b := range l.Buckets {
			m.k.take(b)
		}
		for _, a := range l.Absent {
			m.k.takeAbsent(a[0], a[1])
		}
	case ReadMembers:
		m.membersPending = false
		if l.Err != nil {
			m.fail(l.Err)
			return nil
		}
		m.members = slices.Clone(l.Members)
		if m.members == nil {
			m.members = []string{}
		}
	case ReadWindow:
		delete(m.windowPending, l.Read.Viewer)
		if l.Err != nil {
			m.fail(l.Err)
			return nil
		}
		m.windows[l.Read.Viewer] = l.Window
		if m.cmp.on && l.Read.Viewer == m.cmp.view.Viewer {
			m.cmp.start(m.Window()) // read again after a write: what they see may differ now
		}
	}
	return m.run()
}

// fail stops the keys waiting: the rows beyond cannot be reached, and the
// error says why.
func (m *Model) fail(err error) {
	m.err, m.queue = err, nil
	m.cmp.looking = false
}

// Retry asks again for what failed.
func (m *Model) Retry() []Read {
	m.err = nil
	if m.cmp.err != nil {
		m.cmp.start(m.Window()) // the scan stopped where a read failed
	}
	return m.run()
}

// Reload forgets what is read, keeping the cursor, and reads it again:
// replies to reads asked before are dropped.
func (m *Model) Reload() []Read {
	m.gen++
	m.k = newKnown()
	m.pending, m.windowPending, m.membersPending = map[int64]bool{}, map[string]bool{}, false
	m.datePending = map[dateQuestion]bool{}
	m.mo.pending = map[side]bool{}
	m.err = nil
	m.cmp.restart(m.Window())
	if len(m.queue) == 0 {
		m.queue = append(m.queue, step{Key: Key{Kind: Jump, Seq: m.cursor}})
	}
	return m.run()
}

// Compare is the compare view's state.
func (m *Model) Compare() *Compare { return &m.cmp }

// Rescan looks for the differences again (a write or a read line changed
// what one of the two sees).
func (m *Model) Rescan() []Read {
	m.cmp.restart(m.Window())
	return m.run()
}

// SetWindow replaces the viewer's window (a follow saw new messages, a
// write moved the read seq).
func (m *Model) SetWindow(w bucket.Window) []Read {
	m.windows[m.viewer] = w
	m.cmp.restart(m.Window())
	if len(m.queue) == 0 {
		m.queue = append(m.queue, step{Key: Key{Kind: Jump, Seq: m.cursor}})
	}
	return m.run()
}

// run applies the queued keys in order until one must wait, then says
// what to read: for the waiting key, or around the cursor for the screen.
func (m *Model) run() []Read {
	if m.err != nil {
		return nil
	}
	m.cmp.looking = false
	for len(m.queue) > 0 {
		want, done := m.apply(&m.queue[0])
		if !done {
			m.cmp.looking = want.scan
			if m.held {
				return nil
			}
			if want.bucket != nil && want.rows {
				want.ahead = aheadFor(m.plan().rowsQueued(want.bucket.dir))
			}
			return slices.Concat(m.plan().ask(want), m.cmp.step(m.cfg.Batch, m.gen), m.srch.step())
		}
		m.queue = m.queue[1:]
		if len(m.queue) > 0 {
			m.note = nil // what a key says is the last key's: a later one speaks for the burst
		}
	}
	m.plan().trim()
	if m.held {
		return nil
	}
	return slices.Concat(m.plan().ask(m.plan().aroundCursor()...), m.cmp.step(m.cfg.Batch, m.gen), m.srch.step())
}

// rowsQueued is how many rows the keys at the head of the queue still move
// in direction dir, up to the first key that goes another way.
func (p planner) rowsQueued(dir int64) int {
	m := p.m
	n := 0
	for _, s := range m.queue {
		down := s.Kind == Down || s.Kind == PageDown
		up := s.Kind == Up || s.Kind == PageUp
		if !down && !up || down != (dir > 0) {
			break
		}
		n += max(1, s.rows)
	}
	return n
}
