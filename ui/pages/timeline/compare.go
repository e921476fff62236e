package timeline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// The compare view as a diff: a background scan of the viewer's window
// finds every seq the two viewers see differently, so the next difference
// is one key away however far it is, and "differences only" can list them
// without holding their buckets.

// diffRun is one difference, or a run of neighbouring seqs that differ for
// one reason that holds no message worth a row each (outside a window,
// holes): drawn as one row.
type diffRun struct {
	from, to int64
	a, b     projection.Message // at from
	reason   string
}

func (r diffRun) collapsible() bool {
	return r.reason == projection.ReasonOutsideA || r.reason == projection.ReasonOutsideB || (r.a.Hole && r.b.Hole)
}

// diffScan walks the viewer's window from the newest bucket down, one find
// of a batch of buckets per step, keeping only what differs.
type diffScan struct {
	req      common.ReqID
	with     string    // the second viewer
	runs     []diffRun // oldest first
	scanning bool
	next     int64 // the next bucket to scan, downward
	scanned  int
	total    int
	err      error
	pending  int // a step asked for before the scan found one: -1 older, +1 newer
}

type diffStepMsg struct {
	req     common.ReqID
	runs    []diffRun // oldest first, all older than what was found before
	scanned int
	err     error
}

// restartDiffs starts the scan once both windows are known; before that,
// or when not comparing, it drops what an old scan found.
func (t *Model) restartDiffs() tea.Cmd {
	wb, ok := t.wins[t.compareAs]
	if t.compareAs == "" || !ok || !t.winOK || t.empty() {
		t.diffs = diffScan{}
		return nil
	}
	t.diffs = diffScan{req: t.e.NewReq(), with: t.compareAs, scanning: true,
		next:  bucket.BucketIndex(t.maxSeq()),
		total: int(bucket.BucketIndex(t.maxSeq()) - bucket.BucketIndex(t.minSeq()) + 1)}
	return t.diffStep(wb)
}

// diffStep reads the next batch of buckets and projects each seq of the
// viewer's window for both viewers.
func (t *Model) diffStep(wb bucket.Window) tea.Cmd {
	d := t.diffs
	lowest := bucket.BucketIndex(t.minSeq())
	var idx []int64
	for i := d.next; i >= lowest && len(idx) < t.e.Store.FindBatch; i-- {
		idx = append(idx, i)
	}
	slices.Reverse(idx) // oldest first, as the runs are kept
	e, cid, conv, va, vb := t.e, t.cid, t.conv, t.viewer, d.with
	minSeq, maxSeq := t.minSeq(), t.maxSeq()
	return func() tea.Msg {
		bs, err := e.Store.Buckets(e.Ctx, cid, idx, maxSeq)
		if err != nil {
			return diffStepMsg{req: d.req, err: err}
		}
		// Resolved for the rows of "differences only" (rule 5); a quote
		// shows alike for every viewer, so no verdict depends on it.
		quoted, err := batchLookup(e, cid, bs, minSeq, maxSeq)
		if err != nil {
			return diffStepMsg{req: d.req, err: err}
		}
		var runs []diffRun
		for _, b := range bs {
			for _, s := range b.Slots {
				if s.Seq < minSeq || s.Seq > maxSeq {
					continue
				}
				a := projection.View(s, b.DocID, va, conv, quoted)
				o := projection.View(s, b.DocID, vb, conv, quoted)
				if r := diffVerdict(a, o, wb, true); r != "" {
					runs = appendRun(runs, diffRun{from: s.Seq, to: s.Seq, a: a, b: o, reason: r})
				}
			}
		}
		return diffStepMsg{req: d.req, runs: runs, scanned: len(idx)}
	}
}

// diffVerdict is the compare view's one verdict on a seq: the first rule
// that sets a (the viewer's) and b apart, wb being b's window (known: it
// was read); "" when alike. Its scan, its rows and T's transcript ask it
// alike, so a transcript counts what the view counts.
func diffVerdict(a, b projection.Message, wb bucket.Window, known bool) string {
	return projection.DiffReason(a, b, false, outsideOf(wb, known, a.Seq))
}

// outsideOf reports seq beyond window w; a window not read (known false)
// holds every seq, as nothing says otherwise.
func outsideOf(w bucket.Window, known bool, seq int64) bool {
	return known && (w.PulledNothing() || seq < max(1, w.MinSeq) || seq > w.MaxSeq)
}

// appendRun adds r after runs, joining it to the last run when both are
// collapsible neighbours with the same reason.
func appendRun(runs []diffRun, r diffRun) []diffRun {
	if n := len(runs); n > 0 {
		last := &runs[n-1]
		if last.to+1 == r.from && last.reason == r.reason && last.collapsible() && r.collapsible() {
			last.to = r.to
			return runs
		}
	}
	return append(runs, r)
}

// diffStepped takes a step's differences, reads on, and makes the step to
// a difference that waited for the scan.
func (t *Model) diffStepped(msg diffStepMsg) tea.Cmd {
	if msg.req != t.diffs.req {
		return nil // a scan already replaced or left
	}
	d := &t.diffs
	if msg.err != nil {
		d.scanning, d.err = false, msg.err
		t.say("looking for differences failed: "+msg.err.Error(), true)
		return nil
	}
	// Everything new is older than what is held: join at the seam.
	merged := msg.runs
	for _, r := range d.runs {
		merged = appendRun(merged, r)
	}
	d.runs = merged
	d.scanned += msg.scanned
	d.next -= int64(msg.scanned)
	var cmds []tea.Cmd
	if d.next >= bucket.BucketIndex(t.minSeq()) && msg.scanned > 0 {
		cmds = append(cmds, t.diffStep(t.wins[d.with]))
	} else {
		d.scanning = false
	}
	if d.pending != 0 {
		dir := d.pending
		if _, ok := t.diffTarget(dir); ok || !d.scanning {
			d.pending = 0
			cmds = append(cmds, t.compare().stepDiff(dir, true))
		}
	}
	return tea.Batch(cmds...)
}

// runAt is the index of the run holding seq, -1 if none.
func (d *diffScan) runAt(seq int64) int {
	i, found := slices.BinarySearchFunc(d.runs, seq, func(r diffRun, s int64) int {
		switch {
		case r.to < s:
			return -1
		case r.from > s:
			return 1
		}
		return 0
	})
	if !found {
		return -1
	}
	return i
}

// diffTarget is the nearest run older (dir < 0) or newer than the cursor's.
func (t *Model) diffTarget(dir int) (diffRun, bool) {
	runs := t.diffs.runs
	if dir < 0 {
		for i := len(runs) - 1; i >= 0; i-- {
			if runs[i].to < t.cursor {
				return runs[i], true
			}
		}
		return diffRun{}, false
	}
	for _, r := range runs {
		if r.from > t.cursor {
			return r, true
		}
	}
	return diffRun{}, false
}

// DiffProgress is the footer line of the compare view.
func (t *Model) DiffProgress() string {
	k := t.e.Keys
	d := t.diffs
	n, beyond := 0, t.beyondCount()
	for _, r := range d.runs {
		n += int(r.to - r.from + 1)
	}
	n += int(beyond)
	line := fmt.Sprintf("%d seqs differ", n)
	if n == 1 {
		line = "1 seq differs"
	}
	if beyond > 0 {
		line += fmt.Sprintf(" (%d outside A's window, above)", beyond)
	}
	if i := d.runAt(t.cursor); i >= 0 {
		line = fmt.Sprintf("difference %d of %d · %s", i+1, len(d.runs), line)
	}
	if d.scanning {
		line += fmt.Sprintf(" · scanning %d/%d buckets", d.scanned, d.total)
	}
	only := "only differences"
	if t.diffOnly {
		only = "all rows"
	}
	return line + fmt.Sprintf(" · %s/%s next/prev · %s %s · %s why · %s list · %s end", k.NextDiff.Help().Key, k.PrevDiff.Help().Key,
		k.DiffOnly.Help().Key, only, k.Inspect.Help().Key, k.SwitchPane.Help().Key, k.Back.Help().Key)
}

// compareCols is the layout of a compare row: prefix cells (marker, seq,
// clock), then two halves, the " ≠ " between them and the reason column.
func compareCols(width, prefix int) (half int) {
	return max(1, (width-prefix-3-1-projection.ReasonWidth)/2)
}

// compareRow draws one row of the compare view. The marker and the reason
// carry the diff style even on the selected row, so the difference under
// the cursor still shows.
func (t *Model) compareRow(prefix, a, b, reason string, width int, selected bool) string {
	th := t.e.Theme
	half := compareCols(width, projection.Width(prefix))
	rowStyle, markStyle, sep := th.Text, th.Text, " │ "
	if reason != "" {
		rowStyle, markStyle, sep = th.Diff, th.Diff, " ≠ "
	}
	if selected {
		rowStyle = th.Selected
	}
	left := common.PadRight(projection.Truncate(prefix+common.PadRight(projection.Truncate(a, half), half), width), projection.Width(prefix)+half)
	right := common.PadRight(projection.Truncate(b, half), half)
	why := " " + common.PadRight(reason, projection.ReasonWidth)
	used := projection.Width(left) + 3 + half + projection.Width(why)
	if used > width { // too narrow for the columns: the reason stays, the text goes
		return ansi.Truncate(rowStyle.Render(projection.Truncate(prefix, max(0, width-projection.Width(why))))+markStyle.Render(why), width, "")
	}
	return rowStyle.Render(left) + markStyle.Render(sep) + rowStyle.Render(right) + markStyle.Render(common.PadRight(why, width-used+projection.Width(why)))
}

// compareLine is the compare row of seq in the full timeline.
func (t *Model) compareLine(seq int64, prefix string, width int) string {
	m, _ := t.Message(seq, t.viewer)
	other, _ := t.Message(seq, t.compareAs)
	a, _ := t.describe(m)
	b, _ := t.describe(other)
	if t.outsideWindow(t.compareAs, seq) {
		b = "⊘ not in " + projection.SingleLine(t.memberName(t.compareAs)) + "'s window"
	}
	wb, known := t.wins[t.compareAs]
	return t.compareRow(prefix, a, b, diffVerdict(m, other, wb, known), width, seq == t.cursor)
}

// compareHeader names the two columns of the compare view above its rows.
func (t *Model) compareHeader(width int) string {
	seqWidth := len(strconv.FormatInt(t.maxSeq(), 10))
	prefix := 2 + seqWidth + 1 + len(t.clockFmt) + 1 // marker, seq, clock, as messageLine draws them
	half := compareCols(width, prefix)
	name := func(side, id string) string {
		return projection.Truncate(side+" as "+projection.SingleLine(t.memberName(id)), half)
	}
	line := strings.Repeat(" ", prefix) + common.PadRight(name("A", t.viewer), half) + " │ " + common.PadRight(name("B", t.compareAs), half) + " why"
	return t.e.Theme.Title.Render(common.PadRight(projection.Truncate(line, width), width))
}

// beyondCount is how many seqs B sees outside A's window: differences with
// no row (the timeline is A's window), said in beyondNotes.
func (t *Model) beyondCount() int64 {
	wb, ok := t.wins[t.compareAs]
	if !ok || !t.winOK {
		return 0
	}
	before, after := projection.OnlySecondSees(t.win, wb) // none when B sees nothing: every seq of A's window differs then
	return before.Len() + after.Len()
}

// beyondNotes say what B sees outside A's window: those seqs have no row
// (the timeline is A's window), but they are what B sees and A does not.
func (t *Model) beyondNotes() []string {
	wb, ok := t.wins[t.compareAs]
	if !ok || !t.winOK {
		return nil
	}
	var out []string
	if wb.PulledNothing() {
		return []string{"B: " + unpulledBanner(t.compareAs, wb)}
	}
	before, after := projection.OnlySecondSees(t.win, wb)
	if r := before; r.Len() > 0 {
		out = append(out, fmt.Sprintf("B also sees seqs %d–%d (%d), before A's window: %s", r.From, r.To, r.Len(),
			projection.Explain(projection.Message{MsgData: bucket.MsgData{Seq: r.To}, Viewer: t.viewer}, t.win, t.e.Loc)[0]))
	}
	if r := after; r.Len() > 0 {
		out = append(out, fmt.Sprintf("B also sees seqs %d–%d (%d), after A's window: %s", r.From, r.To, r.Len(),
			projection.Explain(projection.Message{MsgData: bucket.MsgData{Seq: r.From}, Viewer: t.viewer}, t.win, t.e.Loc)[0]))
	}
	return out
}

// settleDiffRows keeps the cursor's difference among the height rows of
// "differences only".
func (t *Model) settleDiffRows(height int) {
	d := &t.diffs
	if len(d.runs) == 0 {
		return
	}
	cur := d.runAt(t.cursor)
	if cur < 0 {
		cur = max(0, min(len(d.runs)-1, firstRunAfter(d.runs, t.cursor)))
	}
	t.diffTop = max(0, min(t.diffTop, cur), cur-height+1)
}

// diffRows draws "differences only": one row per difference (a collapsed
// run as one), the cursor's kept on screen.
func (t *Model) diffRows(width, height int) []string {
	th := t.e.Theme
	d := &t.diffs
	var out []string
	if len(d.runs) == 0 {
		msg := "no differences"
		switch {
		case d.scanning:
			msg = "looking for differences…"
		case t.beyondCount() > 0:
			msg = "A and B see A's window alike: the differences are the seqs noted above"
		}
		return []string{th.Muted.Render(msg)}
	}
	seqWidth := len(strconv.FormatInt(t.maxSeq(), 10))
	for i := t.diffTop; i < len(d.runs) && len(out) < height; i++ {
		r := d.runs[i]
		marker, here := "  ", r.from <= t.cursor && t.cursor <= r.to
		if here {
			marker = t.marker(t.cursor)
		}
		prefix := fmt.Sprintf("%s%*d %s ", marker, seqWidth, r.from, common.Clock(r.a, t.clockFmt, t.e.Loc))
		a, _ := t.describe(r.a)
		b, _ := t.describe(r.b)
		if r.reason == projection.ReasonOutsideB {
			b = "⊘ not in " + projection.SingleLine(t.memberName(t.compareAs)) + "'s window"
		}
		if r.to > r.from {
			a = fmt.Sprintf("· seqs %d–%d (%d)", r.from, r.to, r.to-r.from+1)
			if r.a.Hole {
				a += " no message"
			}
		}
		out = append(out, t.compareRow(prefix, a, b, r.reason, width, here))
	}
	return out
}

// firstRunAfter is the index of the first run after seq.
func firstRunAfter(runs []diffRun, seq int64) int {
	i, _ := slices.BinarySearchFunc(runs, seq, func(r diffRun, s int64) int {
		if r.to < s {
			return -1
		}
		return 1
	})
	return i
}
