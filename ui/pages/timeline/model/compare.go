package model

import (
	"slices"
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
)

// The compare view's data half: its second side, and a scan of the
// viewer's window, newest bucket first, that keeps every seq the two see
// differently, so the next difference is one key away however far it is.

// View is the compare view's second side: a viewer, as of a moment (the
// zero time: now).
type View struct {
	Viewer string
	At     time.Time
}

// Run is one difference, or a run of neighbouring seqs that differ for one
// reason that holds no message worth a row each (outside a window, holes):
// drawn as one row.
type Run struct {
	From, To int64
	A, B     projection.Message // at From
	Reason   string
}

// Collapsible reports a run of seqs drawn as one row.
func (r Run) Collapsible() bool {
	return r.Reason == projection.ReasonOutsideA || r.Reason == projection.ReasonOutsideB || (r.A.Hole && r.B.Hole)
}

// Verdict is the compare view's one verdict on a seq: the first rule that
// sets a (the viewer's) and b apart, wb being b's window (known: it was
// read); "" when alike. Its scan, its rows and a transcript ask it alike, so
// a transcript counts what the view counts.
func Verdict(a, b projection.Message, wb bucket.Window, known bool) string {
	return projection.DiffReason(a, b, false, Outside(wb, known, a.Seq))
}

// Outside reports seq beyond window w; a window not read (known false)
// holds every seq, as nothing says otherwise.
func Outside(w bucket.Window, known bool, seq int64) bool {
	return known && (w.PulledNothing() || seq < max(1, w.MinSeq) || seq > w.MaxSeq)
}

// AppendRun adds r after runs, joining it to the last run when both are
// collapsible neighbours with the same reason.
func AppendRun(runs []Run, r Run) []Run {
	if n := len(runs); n > 0 {
		last := &runs[n-1]
		if last.To+1 == r.From && last.Reason == r.Reason && last.Collapsible() && r.Collapsible() {
			last.To = r.To
			return runs
		}
	}
	return append(runs, r)
}

// Compare is the compare view's state: on or off, its second side,
// "differences only", and what the scan found so far.
type Compare struct {
	on   bool
	view View
	only bool

	runs     []Run // oldest first
	scanning bool
	from     int64 // the lowest seq scanned: every seq from it to the window's end is
	next     int64 // the next bucket to scan, downward
	lowest   int64 // the window's first bucket
	scanned  int
	total    int
	inflight bool // a step of the scan is being read
	scan     int  // the scan's number: a step read for an older one is dropped
	looking  bool // the key at the head of the queue waits on the scan
	err      error
}

// On reports the compare view on.
func (c *Compare) On() bool { return c.on }

// View is the second side, when on.
func (c *Compare) View() View { return c.view }

// Only reports "differences only".
func (c *Compare) Only() bool { return c.on && c.only }

// Runs are the differences found so far, oldest first.
func (c *Compare) Runs() []Run { return c.runs }

// Scanning reports the scan still going; Progress is how far: buckets
// scanned of the window's.
func (c *Compare) Scanning() bool { return c.scanning }

func (c *Compare) Progress() (scanned, total int) { return c.scanned, c.total }

// Looking reports a key waiting for the scan to find its difference.
func (c *Compare) Looking() bool { return c.looking }

// Err is why the scan stopped, nil when it did not fail.
func (c *Compare) Err() error { return c.err }

// RunAt is the index of the run holding seq, -1 if none.
func (c *Compare) RunAt(seq int64) int {
	i, found := slices.BinarySearchFunc(c.runs, seq, func(r Run, s int64) int {
		switch {
		case r.To < s:
			return -1
		case r.From > s:
			return 1
		}
		return 0
	})
	if !found {
		return -1
	}
	return i
}

// start scans window a of viewer va against vb's window wb from the
// newest bucket down; nothing to scan when a holds nothing.
func (c *Compare) start(a bucket.Window) {
	c.scan++
	c.runs, c.scanned, c.inflight, c.err, c.looking = nil, 0, false, nil, false
	lo, hi := max(1, a.MinSeq), a.MaxSeq
	if a.PulledNothing() || hi < lo {
		c.scanning, c.total = false, 0
		return
	}
	c.scanning = true
	c.next, c.lowest = bucket.BucketIndex(hi), bucket.BucketIndex(lo)
	c.total = int(c.next - c.lowest + 1)
	c.from = hi + 1
}

// restart scans again, when on.
func (c *Compare) restart(a bucket.Window) {
	if c.on {
		c.start(a)
	}
}

// stop leaves the compare view; a scan step on its way is dropped.
func (c *Compare) stop() { *c = Compare{scan: c.scan + 1} }

// target is the nearest run older (dir < 0) or newer than the run at
// cursor; wait says the scan has not settled it yet.
func (c *Compare) target(cursor int64, dir int) (r Run, ok, wait bool) {
	if dir > 0 {
		if c.scanning && cursor < c.from {
			return Run{}, false, true // seqs between the cursor and what is scanned are not
		}
		for _, r := range c.runs {
			if r.From > cursor {
				return r, true, false
			}
		}
		return Run{}, false, false
	}
	for i := len(c.runs) - 1; i >= 0; i-- {
		if r := c.runs[i]; r.To < cursor {
			if c.scanning && r.From <= c.from {
				return Run{}, false, true // it may reach further down
			}
			return r, true, false
		}
	}
	return Run{}, false, c.scanning
}

// beyond is how many seqs the second side, whose window is wb, sees
// outside a: differences with no row.
func (c *Compare) beyond(a, wb bucket.Window) int64 {
	before, after := projection.OnlySecondSees(a, wb)
	return before.Len() + after.Len()
}

// step is the scan's next read, when none is on its way: a batch of
// buckets, downward.
func (c *Compare) step(batch, gen int) []Read {
	if !c.scanning || c.inflight {
		return nil
	}
	c.inflight = true
	return []Read{{Kind: ReadScan, Indexes: c.stepRead(batch), Viewer: c.view.Viewer, Scan: c.scan, Gen: gen}}
}

// stepRead is the next batch of buckets to scan, oldest first.
func (c *Compare) stepRead(batch int) []int64 {
	var idx []int64
	for i := c.next; i >= c.lowest && len(idx) < batch; i-- {
		idx = append(idx, i)
	}
	slices.Reverse(idx)
	return idx
}

// took takes a step's buckets: each seq of window a projected for the
// side shown and for the second side, whose window is wb, each at its
// moment.
func (c *Compare) took(l Landed, a, wb bucket.Window, ms Moments) {
	c.inflight = false
	if l.Err != nil {
		c.scanning, c.err = false, l.Err
		return
	}
	lo, hi := max(1, a.MinSeq), a.MaxSeq
	bs := slices.Clone(l.Buckets)
	slices.SortFunc(bs, func(x, y *bucket.Bucket) int { return cmpInt(x.Index, y.Index) })
	var runs []Run
	for _, b := range bs {
		if !slices.Contains(l.Read.Indexes, b.Index) {
			continue
		}
		for i, s := range b.Slots {
			seq := bucket.FirstSeq(b.Index) + int64(i)
			if seq < lo || seq > hi {
				continue
			}
			ma := ms.View(ms.Main(), s, b.DocID, l.Lookup)
			mb := ms.View(c.view, s, b.DocID, l.Lookup)
			if r := Verdict(ma, mb, wb, true); r != "" {
				runs = AppendRun(runs, Run{From: seq, To: seq, A: ma, B: mb, Reason: r})
			}
		}
	}
	// Everything new is older than what is held: join at the seam.
	for _, r := range c.runs {
		runs = AppendRun(runs, r)
	}
	c.runs = runs
	n := len(l.Read.Indexes)
	c.scanned += n
	c.next -= int64(n)
	c.from = max(lo, bucket.FirstSeq(c.next+1))
	if c.next < c.lowest || n == 0 {
		c.scanning = false
		c.from = lo
	}
}
