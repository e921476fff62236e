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
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// The compare view as a diff: the model's scan of the viewer's window
// finds every seq the two viewers see differently, so the next difference
// is one key away however far it is, and "differences only" can list them
// without holding their buckets. The page reads each step of it and draws
// what it found.

// scanLandedMsg is a step of the scan read.
type scanLandedMsg struct {
	req    common.ReqID
	landed model.Landed
}

// scanStep reads a step of the scan: its buckets, and the slots their
// quotes quote, resolved for the rows of "differences only" (rule 5; a
// quote shows alike for every viewer, so no verdict depends on it).
func scanStep(e *common.Common, cid string, req common.ReqID, w bucket.Window, rd model.Read) tea.Cmd {
	minSeq, maxSeq := max(1, w.MinSeq), w.MaxSeq
	return func() tea.Msg {
		l := model.Landed{Read: rd}
		bs, err := e.Store.Buckets(e.Ctx, cid, rd.Indexes, maxSeq)
		if err == nil {
			l.Lookup, err = batchLookup(e, cid, bs, minSeq, maxSeq)
		}
		l.Buckets, l.Err = bs, err
		return scanLandedMsg{req: req, landed: l}
	}
}

// Comparing is the compare view's second viewer, "" when it is off.
func (c Compare) With() string {
	t := c.t
	if c := t.tl.Compare(); c.On() {
		return c.View().Viewer
	}
	return ""
}

// Progress is the footer line of the compare view.
func (c Compare) Progress() string {
	t := c.t
	k := t.e.Keys
	d := t.tl.Compare()
	n, beyond := 0, t.Compare().beyondCount()
	for _, r := range d.Runs() {
		n += int(r.To - r.From + 1)
	}
	n += int(beyond)
	line := fmt.Sprintf("%d seqs differ", n)
	if n == 1 {
		line = "1 seq differs"
	}
	if beyond > 0 {
		line += fmt.Sprintf(" (%d outside A's window, above)", beyond)
	}
	if i := d.RunAt(t.tl.Cursor()); i >= 0 {
		line = fmt.Sprintf("difference %d of %d · %s", i+1, len(d.Runs()), line)
	}
	if d.Scanning() {
		scanned, total := d.Progress()
		line += fmt.Sprintf(" · scanning %d/%d buckets", scanned, total)
	}
	only := "only differences"
	if d.Only() {
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
func (c Compare) compareRow(prefix, a, b, reason string, width int, selected bool) string {
	t := c.t
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
func (c Compare) compareLine(seq int64, prefix string, width int) string {
	t := c.t
	side := t.tl.Compare().View()
	m, unknownA, _ := t.Moment().message(seq, t.Moment().main())
	other, unknownB, _ := t.Moment().message(seq, side)
	a, _ := t.draw.describe(m)
	b, _ := t.draw.describe(other)
	if len(unknownA) > 0 {
		a = unknownMark + a
	}
	if len(unknownB) > 0 {
		b = unknownMark + b
	}
	wb, known := t.Moment().window(side)
	if model.Outside(wb, known, seq) {
		b = "⊘ not in " + projection.SingleLine(t.Moment().name(side)) + "'s window"
	}
	return c.compareRow(prefix, a, b, model.Verdict(m, other, wb, known), width, seq == t.tl.Cursor())
}

// compareHeader names the two columns of the compare view above its rows.
func (c Compare) compareHeader(width int) string {
	t := c.t
	seqWidth := len(strconv.FormatInt(t.Viewers().MaxSeq(), 10))
	prefix := 2 + seqWidth + 1 + len(t.clockFmt) + 1 // marker, seq, clock, as messageLine draws them
	half := compareCols(width, prefix)
	name := func(label string, v model.View) string {
		return projection.Truncate(label+" as "+projection.SingleLine(t.Moment().name(v)), half)
	}
	line := strings.Repeat(" ", prefix) + common.PadRight(name("A", t.Moment().main()), half) + " │ " + common.PadRight(name("B", t.tl.Compare().View()), half) + " why"
	return t.e.Theme.Title.Render(common.PadRight(projection.Truncate(line, width), width))
}

// beyondCount is how many seqs B sees outside A's window: differences with
// no row (the timeline is A's window), said in beyondNotes.
func (c Compare) beyondCount() int64 {
	t := c.t
	wb, ok := t.Moment().window(t.tl.Compare().View())
	if !ok || !t.winOK {
		return 0
	}
	before, after := projection.OnlySecondSees(t.Moment().shown(), wb) // none when B sees nothing: every seq of A's window differs then
	return before.Len() + after.Len()
}

// beyondNotes say what B sees outside A's window: those seqs have no row
// (the timeline is A's window), but they are what B sees and A does not.
func (c Compare) beyondNotes() []string {
	t := c.t
	with := t.Compare().With()
	wb, ok := t.Moment().window(t.tl.Compare().View())
	if !ok || !t.winOK {
		return nil
	}
	var out []string
	if wb.PulledNothing() {
		return []string{"B: " + unpulledBanner(with, wb)}
	}
	a := t.Moment().shown()
	before, after := projection.OnlySecondSees(a, wb)
	if r := before; r.Len() > 0 {
		out = append(out, fmt.Sprintf("B also sees seqs %d–%d (%d), before A's window: %s", r.From, r.To, r.Len(),
			projection.Explain(projection.Message{MsgData: bucket.MsgData{Seq: r.To}, Viewer: t.viewer}, a, t.e.Loc)[0]))
	}
	if r := after; r.Len() > 0 {
		out = append(out, fmt.Sprintf("B also sees seqs %d–%d (%d), after A's window: %s", r.From, r.To, r.Len(),
			projection.Explain(projection.Message{MsgData: bucket.MsgData{Seq: r.From}, Viewer: t.viewer}, a, t.e.Loc)[0]))
	}
	return out
}

// settleDiffRows keeps the cursor's difference among the height rows of
// "differences only".
func (c Compare) settleDiffRows(height int) {
	t := c.t
	d := t.tl.Compare()
	runs := d.Runs()
	if len(runs) == 0 {
		return
	}
	cur := d.RunAt(t.tl.Cursor())
	if cur < 0 {
		cur = max(0, min(len(runs)-1, firstRunAfter(runs, t.tl.Cursor())))
	}
	t.diffTop = max(0, min(t.diffTop, cur), cur-height+1)
}

// diffRows draws "differences only": one row per difference (a collapsed
// run as one), the cursor's kept on screen.
func (c Compare) diffRows(width, height int) []string {
	t := c.t
	th := t.e.Theme
	d := t.tl.Compare()
	runs, side := d.Runs(), d.View()
	var out []string
	if len(runs) == 0 {
		msg := "no differences"
		switch {
		case d.Scanning():
			msg = "looking for differences…"
		case c.beyondCount() > 0:
			msg = "A and B see A's window alike: the differences are the seqs noted above"
		}
		return []string{th.Muted.Render(msg)}
	}
	seqWidth := len(strconv.FormatInt(t.Viewers().MaxSeq(), 10))
	for i := t.diffTop; i < len(runs) && len(out) < height; i++ {
		r := runs[i]
		marker, here := "  ", r.From <= t.tl.Cursor() && t.tl.Cursor() <= r.To
		if here {
			marker = t.draw.marker(t.tl.Cursor())
		}
		prefix := fmt.Sprintf("%s%*d %s ", marker, seqWidth, r.From, common.Clock(r.A, t.clockFmt, t.e.Loc))
		a, _ := t.draw.describe(r.A)
		b, _ := t.draw.describe(r.B)
		if r.Reason == projection.ReasonOutsideB {
			b = "⊘ not in " + projection.SingleLine(t.Moment().name(side)) + "'s window"
		}
		if r.To > r.From {
			a = fmt.Sprintf("· seqs %d–%d (%d)", r.From, r.To, r.To-r.From+1)
			if r.A.Hole {
				a += " no message"
			}
		}
		out = append(out, c.compareRow(prefix, a, b, r.Reason, width, here))
	}
	return out
}

// firstRunAfter is the index of the first run after seq.
func firstRunAfter(runs []model.Run, seq int64) int {
	i, _ := slices.BinarySearchFunc(runs, seq, func(r model.Run, s int64) int {
		if r.To < s {
			return -1
		}
		return 1
	})
	return i
}
