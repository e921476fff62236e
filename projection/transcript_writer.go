package projection

import (
	"fmt"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// TranscriptWriter puts a transcript together row by row. A rule every
// row shares (its why, or in compare its difference) is said once in the
// header, "Every row", and the rows are written without that column; so
// the rows are held while they all agree, and once two differ the header
// and the rows held go out and the rest streams. A compare transcript
// opens with how many seqs the two viewers see differently, known only
// at its end, so it is held whole.
type TranscriptWriter struct {
	format     Transcript
	head       TranscriptHead
	out        bool   // the header is out: rows stream with their column
	rows       int    // rows added
	rule       string // the first row's rule
	mixed      bool   // a row's rule differs from the first's
	with, bare strings.Builder
	differ     int64 // seqs the two viewers see differently
	unknown    int   // rows marked unknown (TranscriptHead.AsOf)
	unsaid     []string
}

// Writer starts a transcript of h in format f.
func (f Transcript) Writer(h TranscriptHead) *TranscriptWriter {
	return &TranscriptWriter{format: f, head: h}
}

// Row adds r; what it returns is ready to go out ("" while rows are held).
func (w *TranscriptWriter) Row(r TranscriptRow) string {
	if r.Reason != "" {
		w.differ += max(r.RunTo, r.Message.Seq) - r.Message.Seq + 1
	}
	if r.Unknown {
		w.unknown++
	}
	rule := w.head.ruleOf(r)
	if w.rows == 0 {
		w.rule = rule
	}
	w.rows++
	w.mixed = w.mixed || rule != w.rule
	if w.out {
		return w.format.row(w.head, r, true)
	}
	w.with.WriteString(w.format.row(w.head, r, true))
	if w.mixed {
		w.bare.Reset()
	} else {
		w.bare.WriteString(w.format.row(w.head, r, false))
	}
	if w.mixed && w.head.Compare == "" && w.head.AsOf.IsZero() {
		w.out = true
		s := w.format.head(w.head, headNotes{}) + w.with.String()
		w.with.Reset()
		return s
	}
	return ""
}

// Unsaid takes what of a pull then no evidence dates and no row carries
// (projection.PullAt.StartUnsaid): the header says it.
func (w *TranscriptWriter) Unsaid(why []string) { w.unsaid = why }

// End is the rest of the transcript: what was held, and its foot.
func (w *TranscriptWriter) End() string {
	if w.out {
		return w.format.foot(w.head)
	}
	var n headNotes
	if w.head.Compare != "" {
		n.counts = w.head.differences(w.differ)
	}
	if !w.head.AsOf.IsZero() {
		n.counts = append(n.counts, w.head.asOfLines(w.unknown, w.unsaid)...)
	}
	rows := w.with.String()
	if every := w.head.ruleWords(w.rule); w.rows > 0 && !w.mixed && every != "" {
		n.every, rows = every, w.bare.String()
	}
	return w.format.head(w.head, n) + rows + w.format.foot(w.head)
}

// headNotes is what a header says of the rows, known once they are all
// seen: the rule every row shares ("" when they differ: each row says
// its own) and, in compare, the count of differences.
type headNotes struct {
	every  string
	counts []string
}

// ruleOf is what sets a row's rule column: its why, or in compare its
// difference.
func (h TranscriptHead) ruleOf(r TranscriptRow) string {
	if h.Compare != "" {
		return r.Reason
	}
	return strings.Join(r.Why, "; ")
}

// ruleWords says a rule in the header's words.
func (h TranscriptHead) ruleWords(rule string) string {
	if h.Compare != "" {
		return ReasonText(rule, h.Viewer, h.Compare)
	}
	return rule
}

// differences are a compare transcript's first lines: how many seqs of
// the range the two viewers see differently, counted as the compare view
// counts them, then the seqs only the second viewer sees, which lie
// outside the range (the first viewer's window).
func (h TranscriptHead) differences(n int64) []string {
	noun := "differences"
	if n == 1 {
		noun = "difference"
	}
	out := []string{fmt.Sprintf("%s %s between %s and %s in seqs %d–%d", thousands(n), noun, h.Viewer, h.Compare, h.From, h.To)}
	before, after := OnlySecondSees(h.Window, h.CompareWindow)
	for _, r := range []struct {
		s     SeqRange
		where string
	}{{before, "before"}, {after, "after"}} {
		if r.s.Len() > 0 {
			out = append(out, fmt.Sprintf("%s also sees seqs %d–%d (%s), %s %s's window", h.Compare, r.s.From, r.s.To, thousands(r.s.Len()), r.where, h.Viewer))
		}
	}
	for i := range out {
		out[i] = SingleLine(out[i])
	}
	return out
}

// SeqRange is seqs From..To; empty when From > To.
type SeqRange struct{ From, To int64 }

// Len is how many seqs r holds.
func (r SeqRange) Len() int64 { return max(0, r.To-r.From+1) }

// OnlySecondSees are the seqs b's window holds outside a's, before it and
// after it: differences of the compare view that have no row, its rows
// being a's window. None when b is pulled nothing (every seq of a's window
// is a difference then).
func OnlySecondSees(a, b bucket.Window) (before, after SeqRange) {
	if b.PulledNothing() {
		return SeqRange{1, 0}, SeqRange{1, 0}
	}
	return SeqRange{max(1, b.MinSeq), min(b.MaxSeq, max(1, a.MinSeq)-1)}, SeqRange{max(b.MinSeq, a.MaxSeq+1), b.MaxSeq}
}

// ruleCell is a row's rule column: its why, or in compare its difference
// in words (empty when the two see it alike).
func (h TranscriptHead) ruleCell(r TranscriptRow) string {
	if h.Compare != "" && r.Reason == "" {
		return ""
	}
	return h.ruleWords(h.ruleOf(r))
}
