package timeline

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"

	"github.com/chatlens/chatlens/ui/common"
)

// T writes a transcript for a ticket: what the viewer sees of a seq or
// date range (asked in the bottom input, offering the rows on screen), in
// markdown or html, to a new file in the transcript directory (the
// current one by default), its whole path said in the status line and in
// a dialog that copies it. The range is read afresh from the store, as dump reads it,
// so it need not be loaded; in the compare view it holds both viewers and
// the differences.

// TranscriptPrompt says what the input takes.
const TranscriptPrompt = "transcript of (10-40, all, date..date; then md or html): "

// transcriptFormats are the formats T writes, by the word typed after the
// range, with their file name extensions; markdown unless told.
var transcriptFormats = map[string]struct{ name, ext string }{
	"md": {"markdown", ".md"}, "markdown": {"markdown", ".md"}, "html": {"html", ".html"},
}

type transcriptWrittenMsg struct {
	path       string
	from, to   int64
	rows       int
	err        error
	compareRun bool
}

// ScreenRange is the first and last seq of the rows on screen: what T
// offers to transcribe.
func (t *Model) ScreenRange() (from, to int64) {
	from, to = t.tl.Top(), t.tl.Top()
	left := t.draw.rowsHeight()
	for s, more := t.tl.Top(), true; more && left > 0; s, more = t.tl.Rows().Next(s) {
		r, ok := t.tl.Rows().At(s)
		if !ok {
			break
		}
		left -= max(1, t.draw.groupHeight(s))
		to = r.Last
	}
	return from, min(to, t.Viewers().MaxSeq())
}

// Write parses the range typed and starts writing the file.
func (tr Transcript) Write(value string) tea.Cmd {
	t := tr.t
	if t.Viewers().empty() {
		return say(t, "no messages to transcribe", true)
	}
	if at := t.Moment().Label(); at != "" {
		// A transcript here is of now; dump --at writes one of a moment.
		return say(t, fmt.Sprintf("a transcript is of now (%s first); for %s: chatlens dump --at … --format markdown", common.KeyName(t.e.Keys.Now), at), true)
	}
	value = strings.TrimSpace(value)
	format := transcriptFormats["md"]
	if i := strings.LastIndexAny(value, " \t"); i >= 0 {
		if f, ok := transcriptFormats[strings.ToLower(value[i+1:])]; ok {
			format, value = f, strings.TrimSpace(value[:i])
		}
	} else if f, ok := transcriptFormats[strings.ToLower(value)]; ok {
		format, value = f, ""
	}
	if value == "all" || value == "" { // the whole loaded window
		from, to := t.tl.Rows().ReadFrom(), t.tl.Rows().ReadTo()
		value = fmt.Sprintf("%d-%d", from, to)
	}
	asked, err := store.ParseTypedRange(value, t.e.Loc)
	if err != nil {
		return say(t, err.Error(), true)
	}
	from, to := asked.From, asked.To
	job := t.Transcript().transcriptJob()
	job.format, job.ext, job.asked = format.name, format.ext, asked.String()
	return tea.Batch(say(t, "writing the transcript of "+value+"…", false), func() tea.Msg {
		if asked.Dates {
			var err error
			if from, to, err = job.resolveDates(from, to); err != nil {
				return transcriptWrittenMsg{err: err}
			}
		}
		from, to = max(from, job.win.MinSeq, 1), min(to, job.win.MaxSeq)
		if from > to {
			return transcriptWrittenMsg{err: fmt.Errorf("nothing of %s in %s's window (seqs %d-%d)", value, job.viewer, job.win.MinSeq, job.win.MaxSeq)}
		}
		return job.write(from, to)
	})
}

// transcriptJob is what a transcript needs of the timeline, copied when
// it is asked for: the file is written in the background.
type transcriptJob struct {
	e                     *common.Common
	cid                   string
	conv                  projection.Conv
	viewer, viewerName    string
	win                   bucket.Window
	compareAs, otherName  string
	otherWin              bucket.Window
	compareWindowReadable bool
	format, ext           string // projection.TranscriptFormats' name, the file's extension
	asked                 string // the range asked, in words (store.TypedRange)
}

func (tr Transcript) transcriptJob() transcriptJob {
	t := tr.t
	j := transcriptJob{e: t.e, cid: t.cid, conv: t.conv, viewer: t.viewer, viewerName: t.Viewers().memberName(t.viewer), win: t.win}
	if t.Compare().With() != "" {
		j.compareAs, j.otherName = t.Compare().With(), t.Viewers().memberName(t.Compare().With())
		j.otherWin, j.compareWindowReadable = t.tl.WindowOf(t.Compare().With())
	}
	return j
}

// resolveDates turns the dates into the seqs sent from d1 up to (not at)
// d2, the end of the last date, minute or second typed.
func (j transcriptJob) resolveDates(d1, d2 int64) (from, to int64, err error) {
	lo, hi := max(1, j.win.MinSeq), j.win.MaxSeq
	if from, err = seqAtOrAfter(j.e, j.cid, lo, hi, d1); err != nil {
		return 0, 0, err
	}
	if from == 0 {
		return 0, 0, errors.New("no message sent in that time")
	}
	end, err := seqAtOrAfter(j.e, j.cid, lo, hi, d2)
	if err != nil {
		return 0, 0, err
	}
	if end == 0 {
		return from, hi, nil
	}
	return from, end - 1, nil
}

// write reads from..to as dump does and writes the file.
func (j transcriptJob) write(from, to int64) tea.Msg {
	ctx, st := j.e.Ctx, j.e.Store
	var readers projection.ReadReceipts
	if members, err := st.MembersFor(ctx, j.cid, j.viewer); err == nil {
		rs, err := st.Readers(ctx, j.cid, members)
		if err != nil {
			return transcriptWrittenMsg{err: err}
		}
		readers = toReaders(rs)
	}
	head := projection.TranscriptHead{Context: st.Context(), Store: st.Describe(), Conversation: j.cid, Viewer: j.viewer,
		ViewerName: j.viewerName, Window: j.win, Asked: j.asked, From: from, To: to, Captured: j.e.Now(), Version: j.e.Version, Zone: j.e.Loc}
	if j.compareAs != "" {
		head.Compare, head.CompareName, head.CompareWindow = j.compareAs, j.otherName, j.otherWin
	}
	w := projection.TranscriptFormats[j.format].Writer(head)
	var b strings.Builder
	rows := 0
	runFrom, runTo := int64(0), int64(0)
	var runIn projection.Message // the malformed bucket the run is of: its DocID and BucketProblem
	flush := func() {
		if runFrom == 0 {
			return
		}
		for _, part := range j.holeParts(runFrom, runTo) {
			m := projection.Message{MsgData: bucket.MsgData{Seq: part.From}, Hole: true, DocID: runIn.DocID, BucketProblem: runIn.BucketProblem}
			r := projection.TranscriptRow{Message: m, Other: m, RunTo: part.To}
			if j.compareAs != "" {
				r.Reason = model.Verdict(m, m, j.otherWin, j.compareWindowReadable)
			}
			b.WriteString(w.Row(r))
			rows++
		}
		runFrom = 0
	}
	// A run of holes stays within one malformed bucket, or out of every one.
	hole := func(a, z int64, in projection.Message) {
		if in.BucketProblem == "" {
			in = projection.Message{}
		}
		if runFrom != 0 && (in.DocID != runIn.DocID || in.BucketProblem != runIn.BucketProblem) {
			flush()
		}
		if runFrom == 0 {
			runFrom, runIn = a, in
		}
		runTo = z
	}
	next := from
	err := st.ScanQuoted(ctx, &j.win, from, to, projection.QuotedSeqs, func(batch []*bucket.Bucket, lookup bucket.Lookup) error {
		for _, bk := range batch {
			for _, slot := range bk.Slots {
				if slot.Seq < from || slot.Seq > to {
					continue
				}
				if slot.Seq > next {
					hole(next, slot.Seq-1, projection.Message{})
				}
				next = slot.Seq + 1
				m := projection.ViewIn(bk, slot, j.viewer, j.conv, lookup)
				if m.Hole && m.Problem == "" {
					hole(m.Seq, m.Seq, m)
					continue
				}
				flush()
				b.WriteString(w.Row(j.row(m, slot, bk.DocID, lookup, readers)))
				rows++
			}
		}
		return nil
	}, func(a, z int64) error { hole(a, z, projection.Message{}); next = z + 1; return nil })
	if err != nil {
		return transcriptWrittenMsg{err: err}
	}
	if next <= to {
		hole(next, to, projection.Message{})
	}
	flush()
	b.WriteString(w.End())
	path, err := j.createFile(from, to, b.String())
	return transcriptWrittenMsg{path: path, from: from, to: to, rows: rows, err: err, compareRun: j.compareAs != ""}
}

// row is one message: with its rules and readers, or beside the second
// viewer's view in compare.
func (j transcriptJob) row(m projection.Message, slot bucket.StoredSlot, docID string, lookup bucket.Lookup, readers projection.ReadReceipts) projection.TranscriptRow {
	why := append(projection.Explain(m, j.win, j.e.Loc), readers.Words(m)...)
	r := projection.TranscriptRow{Message: m, Why: why}
	if j.compareAs == "" {
		return r
	}
	r.Other = projection.View(slot, docID, j.compareAs, j.conv, lookup)
	if model.Outside(j.otherWin, j.compareWindowReadable, m.Seq) {
		r.Other = projection.Message{MsgData: bucket.MsgData{Seq: m.Seq}, Hole: true}
	}
	r.OtherWhy = projection.Explain(r.Other, j.otherWin, j.e.Loc)
	r.Reason = model.Verdict(m, r.Other, j.otherWin, j.compareWindowReadable)
	return r
}

// holeParts cuts a run of holes where the second viewer's window starts
// and ends, so that each part has one verdict of the compare view.
func (j transcriptJob) holeParts(a, z int64) []projection.SeqRange {
	if j.compareAs == "" || !j.compareWindowReadable || j.otherWin.PulledNothing() {
		return []projection.SeqRange{{From: a, To: z}}
	}
	var out []projection.SeqRange
	for _, cut := range []int64{max(1, j.otherWin.MinSeq), j.otherWin.MaxSeq + 1} {
		if a < cut && cut <= z {
			out = append(out, projection.SeqRange{From: a, To: cut - 1})
			a = cut
		}
	}
	return append(out, projection.SeqRange{From: a, To: z})
}

// createFile writes content to a new file in the transcript directory,
// never over an existing one: name.md, name-2.md, ...; the path returned
// is whole, so it can be found from anywhere.
func (j transcriptJob) createFile(from, to int64, content string) (string, error) {
	base := transcriptName(j.cid, j.viewer, j.compareAs, from, to)
	dir := j.e.TranscriptDir
	if dir == "" {
		dir = "."
	}
	for n := 1; n < 1000; n++ {
		name := base + j.ext
		if n > 1 {
			name = fmt.Sprintf("%s-%d%s", base, n, j.ext)
		}
		path, err := filepath.Abs(filepath.Join(dir, name))
		if err != nil {
			return "", err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, werr := f.WriteString(content)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(path) // half a transcript is worse than none
			return "", werr
		}
		return path, nil
	}
	return "", fmt.Errorf("%s: 999 transcripts of that name already", base)
}

// transcriptName is a transcript's file name without its extension:
// chatlens-<conversation>-<viewer>[-vs-<other>]-<from>-<to>, each ID made
// safe for a file name and, past maxNamePart bytes, cut and followed by a
// short hash of the whole ID, so that the name stays under the 255 bytes
// file systems allow and two long IDs alike at the start stay apart.
func transcriptName(cid, viewer, other string, from, to int64) string {
	who := namePart(viewer)
	if other != "" {
		who += "-vs-" + namePart(other)
	}
	return fmt.Sprintf("chatlens-%s-%s-%d-%d", namePart(cid), who, from, to)
}

// maxNamePart bounds one ID in a transcript's file name.
const maxNamePart = 40

func namePart(id string) string {
	safe := fileSafe(id)
	if len(safe) <= maxNamePart {
		return safe
	}
	sum := sha256.Sum256([]byte(id))
	return safe[:maxNamePart-9] + "-" + hex.EncodeToString(sum[:4])
}

// fileSafe keeps letters, digits, '.', '_' and '-'; anything else (a
// conversation ID is stored data) becomes '_'.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '_'
	}, strings.TrimLeft(s, "."))
}

// transcriptWritten says where the transcript went, or why it did not;
// the root offers to copy its path.
func (tr Transcript) transcriptWritten(msg transcriptWrittenMsg) tea.Cmd {
	t := tr.t
	if msg.err != nil {
		return say(t, "transcript not written: "+msg.err.Error(), true)
	}
	what := "transcript"
	if msg.compareRun {
		what = "compare transcript"
	}
	what = fmt.Sprintf("%s of seqs %d-%d (%d rows)", what, msg.from, msg.to, msg.rows)
	written := TranscriptWrittenMsg{from{t}, msg.path, what}
	return tea.Batch(say(t, what+" written to "+msg.path, false), func() tea.Msg { return written })
}

// Transcript is the transcript feature of the page (T).
type Transcript struct{ t *Model }

// Transcript is the page's transcript writer.
func (t *Model) Transcript() Transcript { return Transcript{t} }
