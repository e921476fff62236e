package projection

import (
	"slices"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// Then is a viewer's conversation as their pull gave it at a moment, for
// a view that walks it row by row (the UI): the window the pull held then
// and each slot read back to then. ThenTally works it out with the rules
// of dump --at (PullAt: which seqs) and conversations --at (ListTally:
// the read seq), so the two views and the commands agree.
type Then struct {
	AsOf
	// Window is the viewer's window now with the seqs pulled then
	// (MinSeq..MaxSeq; MaxSeq 0: none) and the read seq then.
	Window bucket.Window
	// Had: they had the conversation then; a window then with no seq
	// (MaxSeq 0) says why in NotHeld.
	Had bool
	// ReadAtLeast: the read seq then is known only as a bound; ReadWhy
	// says why.
	ReadAtLeast bool
	ReadWhy     []string
	// Start is what of the window's start then no evidence dates: the
	// first row pulled carries it, as dump --at's does.
	Start []string
	// now is the window now, for NotHeld.
	now bucket.Window
	// unsaid is what of the window's start no evidence dates when no row
	// of it was pulled then (PullAt.StartUnsaid), for NotHeld.
	unsaid []string
	// marks are the unknowns the pull's rules put on rows (the window's
	// start, the pull's end), by runs of seqs.
	marks []marks
}

// marks is a run of seqs whose rows carry the same unknowns of the pull.
type marks struct {
	from, to int64
	why      []string
}

// Slot is st as it was at the moment, with what of it no evidence dates.
func (t Then) Slot(st bucket.StoredSlot) (bucket.StoredSlot, []string) {
	then, _, unknown := t.AsOf.Slot(st)
	i, found := slices.BinarySearchFunc(t.marks, st.Seq, func(m marks, seq int64) int {
		switch {
		case m.to < seq:
			return -1
		case m.from > seq:
			return 1
		}
		return 0
	})
	if found {
		unknown = append(slices.Clone(t.marks[i].why), unknown...)
	}
	return then, unknown
}

// View is st as viewer's pull gave it then (quotes read through lookup,
// as they were then), and what of it no evidence dates.
func (t Then) View(st bucket.StoredSlot, docID string, lookup bucket.Lookup) (Message, []string) {
	then, unknown := t.Slot(st)
	return View(then, docID, t.Viewer, t.Conv, t.Lookup(lookup)), unknown
}

// ReadWords is the read seq then as a list says it: "36", or "≥ 36".
func (t Then) ReadWords() string {
	return ListedAt{ReadSeq: t.Window.ReadSeq, ReadAtLeast: t.ReadAtLeast}.ReadWords()
}

// NotHeld says why the viewer's pull held nothing of the conversation at
// the moment.
func (t Then) NotHeld() string {
	if t.Had && t.now.MaxSeq > 0 && t.unsaid != nil {
		return "no message of the window now was sent by then; unknown: " + strings.Join(t.unsaid, "; ")
	}
	if t.Had && t.now.MaxSeq > 0 {
		return "no message of it was sent by then"
	}
	return NotHeldWhy(t.H, t.now)
}

// NotHeldWhy says why a pull held nothing of the conversation at a
// moment, given the window now and the viewer's history.
func NotHeldWhy(h bucket.History, w bucket.Window) string {
	if w.MaxSeq == 0 {
		return "it holds no message"
	}
	if h.Created > 0 {
		return "they got it at " + time.UnixMilli(h.Created).UTC().Format(time.RFC3339Nano) + " (" + h.CreatedFrom + ")"
	}
	return "they own no conversation document of it"
}

// ThenTally takes the conversation's slots in seq order, from seq 1 to
// the end of the viewer's window now (a bucket not stored as holes), and
// keeps the window then: Then.
type ThenTally struct {
	pull        PullAt
	list        ListTally
	from        int64 // the first seq the pull takes (PullAt.ScanFrom)
	first, last int64 // the first and last seq pulled then
	done        bool  // the pull then ended
	marks       []marks
}

// NewThenTally is a tally of a's viewer's window w.
func NewThenTally(a AsOf, w bucket.Window) *ThenTally {
	t := &ThenTally{pull: PullAt{AsOf: a, Window: w}, list: ListTally{AsOf: a, Before: w.MinSeq - 1}}
	t.from = t.pull.ScanFrom()
	return t
}

// Add takes the next slot.
func (t *ThenTally) Add(st bucket.StoredSlot) {
	if st.Seq > t.pull.Window.MaxSeq {
		return
	}
	t.list.Add(st)
	if t.done || st.Seq < t.from {
		return
	}
	rows, done := t.pull.Add(st, func(then bucket.StoredSlot) Message { return Message{MsgData: bucket.MsgData{Seq: then.Seq}} })
	t.took(rows)
	t.done = done
}

// took keeps the span of rows pulled then and the unknowns the pull's
// rules put on them.
func (t *ThenTally) took(rows []AsOfRow) {
	for _, r := range rows {
		if t.first == 0 {
			t.first = r.Seq
		}
		t.last = r.Seq
		if r.extra == 0 {
			continue
		}
		why := r.Unknown[:r.extra:r.extra]
		if n := len(t.marks); n > 0 && t.marks[n-1].to == r.Seq-1 && slices.Equal(t.marks[n-1].why, why) {
			t.marks[n-1].to = r.Seq
			continue
		}
		t.marks = append(t.marks, marks{from: r.Seq, to: r.Seq, why: why})
	}
}

// AddGap takes a run of seqs not stored, from..to: holes, whose first
// alone can start the rows pulled then (the pull's rows end on a
// message), so a run of any length costs one step.
func (t *ThenTally) AddGap(from, to int64) {
	if from = max(from, t.from); from <= min(to, t.pull.Window.MaxSeq) {
		t.Add(bucket.StoredSlot{Seq: from})
	}
}

// Then is the window then, once every slot is added.
func (t *ThenTally) Then() Then {
	t.took(t.pull.Flush())
	a, now := t.pull.AsOf, t.pull.Window
	listed := t.list.Listed(now)
	out := Then{AsOf: a, now: now, ReadAtLeast: listed.ReadAtLeast, ReadWhy: listed.ReadWhy, Start: t.pull.start, marks: t.marks}
	out.Window = now
	out.Window.Last, out.Window.Newest, out.Window.StoredNewest = nil, nil, nil
	out.Had, _ = a.Had()
	if !out.Had || now.MaxSeq == 0 || t.first == 0 {
		out.unsaid = t.pull.StartUnsaid()
		out.Window.MinSeq, out.Window.MaxSeq, out.Window.ReadSeq = 1, 0, 0
		return out
	}
	out.Window.MinSeq, out.Window.MaxSeq, out.Window.ReadSeq = t.first, t.last, min(listed.ReadSeq, t.last)
	return out
}
