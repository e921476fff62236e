package timeline

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/themes"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// The timeline is drawn from the seq at t.tl.Top() downward, newest at the
// bottom. Each seq is a group of lines: an optional bucket boundary, the
// message, and the read line after the viewer's read seq.

func (d drawing) showReadLine(seq int64) bool {
	t := d.t
	w := t.Moment().shown()
	return t.winOK && seq == w.ReadSeq && w.ReadSeq < t.Viewers().MaxSeq()
}

func (d drawing) showBoundary(seq int64) bool {
	t := d.t
	return t.tl.Boundaries() && seq == bucket.FirstSeq(bucket.BucketIndex(seq))
}

// bucketProblem is why the bucket of seq breaks the contract as a whole
// (array length, msgs missing), when seq is the first of it shown; "" else.
// Slot problems are marked on their own row.
func (d drawing) bucketProblem(seq int64) string {
	t := d.t
	if seq != max(bucket.FirstSeq(bucket.BucketIndex(seq)), t.Viewers().minSeq()) {
		return ""
	}
	return projection.BucketProblem(t.tl.Held(bucket.BucketIndex(seq)))
}

// groupHeight is the lines of the row at seq: the row, and the lines drawn
// with it (a bucket boundary or a malformed bucket's note above, the read
// line or the end of a capped window below its last seq).
func (d drawing) groupHeight(seq int64) int {
	t := d.t
	r, ok := t.tl.Rows().At(seq)
	if !ok || r.Kind == model.RowGap {
		return 1
	}
	n := 1
	if t.draw.showBoundary(seq) {
		n++
	}
	if t.draw.bucketProblem(seq) != "" {
		n++
	}
	if t.draw.showReadLine(r.Last) {
		n++
	}
	if t.draw.showEndLine(r.Last) {
		n++
	}
	return n
}

// showEndLine: seq is the last of a window the viewer's own cap ends before
// the conversation does (a member who left: OpenIM caps their pull at
// conversation.max_seq), so the screen says why nothing follows.
func (d drawing) showEndLine(seq int64) bool {
	t := d.t
	return t.winOK && t.tl.Moment().At() == 0 && t.win.CapSeq > 0 && seq == t.Viewers().MaxSeq() && t.win.CapSeq < t.win.EndSeq
}

// endLine is the marker under the last seq of a capped window (whose
// window it is, the header says; the inspector says the rest).
func (d drawing) endLine() string {
	t := d.t
	why := "their pull stops there"
	if t.win.CapField == "conversation.max_seq" {
		why = "left or removed"
	}
	return fmt.Sprintf("── end of window: %s = %d (%s) · chat to %d ──", t.win.CapField, t.win.CapSeq, why, t.win.EndSeq)
}

// unpulledBanner says who is pulled nothing of w's conversation and why
// (bucket.Window.UnpulledReason).
func unpulledBanner(viewer string, w bucket.Window) string {
	return projection.SingleLine(fmt.Sprintf("%s is pulled nothing of %s: %s and their devices show none of it, as dump shows nothing",
		viewer, w.Cid, w.UnpulledReason(viewer)))
}

// scrollTo moves the top so that the cursor's group is on screen,
// walking the rows read (a gap of a billion seqs is one step).
func (d drawing) scrollTo(height int) {
	t := d.t
	top := t.tl.Top()
	if top > t.tl.Cursor() || !t.draw.rowAt(top) {
		top = t.tl.Cursor()
	}
	// The cursor's group ends within height lines of the top.
	for top < t.tl.Cursor() && t.draw.linesBetween(top, t.tl.Cursor(), height+1) > height {
		next, ok := t.tl.Rows().Next(top)
		if !ok {
			break
		}
		top = next
	}
	// Fill the screen when the newest messages end it early.
	for {
		prev, ok := t.tl.Rows().Prev(top)
		if !ok || t.draw.linesFrom(prev, height+1) > height {
			break
		}
		top = prev
	}
	t.tl.SetTop(top)
}

// linesBetween counts the lines of the rows from..to, stopping past limit.
func (d drawing) linesBetween(from, to int64, limit int) int {
	t := d.t
	lines := 0
	for s := from; lines <= limit; {
		lines += t.draw.groupHeight(s)
		next, ok := t.tl.Rows().Next(s)
		if s >= to || !ok {
			break
		}
		s = next
	}
	return lines
}

// linesFrom counts the lines of the rows from seq to the end of what is
// read, stopping past limit.
func (d drawing) linesFrom(seq int64, limit int) int {
	t := d.t
	return t.draw.linesBetween(seq, t.Viewers().MaxSeq(), limit)
}

// clockLayout is the layout of every row on screen: the long one as soon as
// one held message is not of the current year, so the columns stay aligned.
func (d drawing) clockLayout() string {
	t := d.t
	year := t.e.Now().In(t.e.Loc).Year()
	for _, i := range t.tl.HeldIndexes() {
		for _, s := range t.tl.Held(i).Slots {
			if s.Slot != nil && s.Slot.Msg != nil && s.Slot.Msg.SendTime != 0 &&
				time.UnixMilli(s.Slot.Msg.SendTime).In(t.e.Loc).Year() != year {
				return common.ClockOtherYear
			}
		}
	}
	return common.ClockThisYear
}

// SetSize takes the cells inside the pane's border and settles what
// scrolls for them: the top row, the cursor on the first seq of a run of
// holes, the clock layout. The root calls it after every update, so View
// draws what is settled and changes nothing.
func (t *Model) SetSize(width, height int) {
	t.width, t.height = width, height
	if t.Viewers().empty() || !t.draw.rowAt(t.tl.Cursor()) {
		return // nothing but a note is drawn
	}
	t.clockFmt = t.draw.clockLayout()
	body := t.draw.rowsHeight()
	if t.tl.Compare().Only() {
		t.Compare().SetSize(width, body)
		return
	}
	t.draw.settleRows(body)
}

// rowsHeight is the lines under the header and, comparing, the compare
// header and its notes.
func (d drawing) rowsHeight() int {
	t := d.t
	body := t.height - 1
	if t.Compare().With() != "" {
		body -= 1 + len(t.Compare().beyondNotes())
	}
	return body
}

// settleRows scrolls so the cursor's row is among height lines, less the
// error and the notes above the rows (each note's need depends on the top).
func (d drawing) settleRows(height int) {
	t := d.t
	if t.Err() != nil {
		height -= len(t.draw.errorLines(t.width))
	}
	t.draw.scrollTo(height)
	t.olderNote = t.tl.Rows().MoreAbove(t.tl.Top()) && t.Err() == nil
	if t.olderNote {
		height--
		t.draw.scrollTo(height)
	}
	t.clearedNote = t.tl.Top() == t.Viewers().minSeq() && t.win.Cleared() && t.Err() == nil
	if t.clearedNote {
		height--
		t.draw.scrollTo(height)
	}
}

// View draws the timeline inside the size it was given (borders excluded).
func (t *Model) View() string {
	th := t.e.Theme
	width, height := t.width, t.height
	header := projection.SingleLine(t.Viewers().title()) + "  " + projection.SingleLine(t.cid) + "  as " + projection.SingleLine(t.Moment().name(t.Moment().main()))
	if t.Compare().With() != "" {
		header += "  vs " + projection.SingleLine(t.Moment().name(t.tl.Compare().View()))
	}
	lines := []string{th.Title.Render(projection.Truncate(header, width))}
	switch {
	case t.Err() != nil && !t.draw.rowAt(t.tl.Cursor()):
		lines = append(lines, t.draw.errorLines(width)...)
	case t.winOK && t.win.PulledNothing():
		for _, l := range common.WrapWords(unpulledBanner(t.viewer, t.win), width) {
			lines = append(lines, th.Warn.Render(l))
		}
	case t.Viewers().empty():
		if then, ok := t.tl.Moment().Then(); ok && !t.win.PulledNothing() {
			for _, l := range common.WrapWords(projection.SingleLine(fmt.Sprintf("%s's pull gave nothing of %s %s: %s", t.viewer, t.cid, t.Moment().Label(), then.NotHeld())), width) {
				lines = append(lines, th.Muted.Render(l))
			}
			break
		}
		lines = append(lines, th.Muted.Render("no messages visible to "+projection.SingleLine(t.viewer)))
		if t.win.Cleared() {
			lines = append(lines, th.Muted.Render(projection.Truncate(t.draw.clearedLine(), width)))
		}
	case !t.draw.rowAt(t.tl.Cursor()):
		lines = append(lines, th.Muted.Render("loading…"))
	default:
		if t.Compare().With() != "" {
			lines = append(lines, t.Compare().compareHeader(width))
			for _, note := range t.Compare().beyondNotes() {
				lines = append(lines, t.e.Theme.Diff.Render(common.PadRight(projection.Truncate(projection.SingleLine(note), width), width)))
			}
		}
		if t.tl.Compare().Only() {
			lines = append(lines, t.Compare().diffRows(width, t.draw.rowsHeight())...)
			break
		}
		lines = append(lines, t.draw.rows(width, t.draw.rowsHeight())...)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:height], "\n")
}

func (d drawing) errorLines(width int) []string {
	t := d.t
	th := t.e.Theme
	return []string{
		th.Error.Render(projection.Truncate("could not load: "+projection.SingleLine(t.Err().Error()), width)),
		th.Muted.Render("press " + t.e.Keys.Retry.Help().Key + " to retry"),
	}
}

func (d drawing) rows(width, height int) []string {
	t := d.t
	th := t.e.Theme
	var out []string
	if t.Err() != nil {
		out = append(out, t.draw.errorLines(width)...)
		height -= len(out)
	}
	if t.olderNote {
		out = append(out, th.Muted.Render(projection.Truncate(t.draw.olderLine(), width)))
		height--
	}
	if t.clearedNote {
		out = append(out, th.Muted.Render(projection.Truncate(t.draw.clearedLine(), width)))
		height--
	}
	seqWidth := len(strconv.FormatInt(t.Viewers().MaxSeq(), 10))
	for s, more := t.tl.Top(), true; more && height > 0; s, more = t.tl.Rows().Next(s) {
		r, ok := t.tl.Rows().At(s)
		if !ok {
			break
		}
		if r.Kind == model.RowGap {
			line := common.PadRight(projection.Truncate(fmt.Sprintf("%s%*d %*s ", t.draw.marker(s), seqWidth, s, len(t.clockFmt), "")+gapLine(r.First, r.Last), width), width)
			style := th.Hole
			if s == t.tl.Cursor() {
				style = th.Selected
			}
			out = append(out, style.Render(line))
			height--
			continue
		}
		if t.draw.showBoundary(s) {
			out = append(out, th.BucketLine.Render(projection.Truncate(
				fmt.Sprintf("── bucket %s ──", projection.SingleLine(bucket.DocIDForSeq(t.cid, s))), width)))
			height--
		}
		if p := t.draw.bucketProblem(s); p != "" && height > 0 {
			out = append(out, th.Problem.Render(projection.Truncate(projection.MalformedBucketLine(bucket.DocIDForSeq(t.cid, s), p), width)))
			height--
		}
		if height <= 0 {
			break
		}
		if isRun(r) {
			out = append(out, t.draw.holeRunLine(r, width, seqWidth))
		} else {
			out = append(out, t.draw.messageLine(s, width, seqWidth))
		}
		height--
		if t.draw.showReadLine(r.Last) && height > 0 {
			out = append(out, th.ReadLine.Render(projection.Truncate(
				fmt.Sprintf("── %s read %s (seq %d) ──", projection.SingleLine(t.Viewers().memberName(t.viewer)), t.draw.readWords(), r.Last), width)))
			height--
		}
		if t.draw.showEndLine(r.Last) && height > 0 {
			out = append(out, th.Muted.Render(projection.Truncate(t.draw.endLine(), width)))
			height--
		}
	}
	return out
}

// olderLine is the note above the oldest row held while the window goes
// on above it: "loading" only while a read of older buckets is under way
// (it stayed up with nothing loading), else where the older seqs are.
func (d drawing) olderLine() string {
	t := d.t
	if t.tl.Pending() {
		return "  … loading older messages"
	}
	return fmt.Sprintf("  ↑ seqs %d–%d are read when you scroll up", t.Viewers().minSeq(), t.tl.Top()-1)
}

// clearedLine marks where the viewer's history starts when it does not
// start at seq 1 (the inspector says why).
func (d drawing) clearedLine() string {
	t := d.t
	return fmt.Sprintf("── history cleared before seq %d (%s: why) ──", t.Viewers().minSeq(), common.KeyName(t.e.Keys.Inspect))
}

func (d drawing) messageLine(seq int64, width, seqWidth int) string {
	t := d.t
	th := t.e.Theme
	m, unknown, _ := t.Moment().message(seq, t.Moment().main())
	prefix := fmt.Sprintf("%s%*d %s ", t.draw.marker(seq), seqWidth, seq, common.Clock(m, t.clockFmt, t.e.Loc))
	if t.Compare().With() == "" {
		text, style := t.draw.describe(m)
		if len(unknown) > 0 {
			text = unknownMark + text // as stored now: no evidence dates a change to it (i says which)
		}
		line := projection.Truncate(prefix+text, width)
		if seq == t.tl.Cursor() {
			style = th.Selected
		}
		return t.Search().highlight(common.PadRight(line, width), len(prefix), style)
	}
	return t.Compare().compareLine(seq, prefix, width)
}

// unknownMark opens a row shown at a moment whose state then no evidence
// dates, as dump --at marks it unknown.
const unknownMark = "? "

// readWords say where the read line is: "up to here", and at a moment
// "up to here then", or "at least …" when only a bound is known.
func (d drawing) readWords() string {
	then, ok := d.t.tl.Moment().Then()
	switch {
	case !ok:
		return "up to here"
	case then.ReadAtLeast:
		return "at least up to here then"
	}
	return "up to here then"
}

// marker points at the cursor's row.
func (d drawing) marker(seq int64) string {
	t := d.t
	switch {
	case seq == t.tl.Cursor() && t.focused:
		return "▸ "
	case seq == t.tl.Cursor():
		return "▹ " // the keys go to the list
	}
	return "  "
}

// describe is the one-line text of a message as its viewer sees it, and the
// style that tells the cases apart even without colour (each has a marker).
func (d drawing) describe(m projection.Message) (string, lipgloss.Style) {
	t := d.t
	return describe(t.e.Theme, m, t.Viewers().memberName)
}

// describe is Model.describe with the member names given (name), so that a
// search in the background matches what the rows draw.
func describe(th themes.Theme, m projection.Message, name func(id string) string) (string, lipgloss.Style) {
	switch {
	case m.Hole && m.Problem != "":
		return "! malformed: " + projection.SingleLine(m.Problem), th.Problem
	case m.Hole:
		return "· (no message)", th.Hole
	}
	sender := projection.SingleLine(senderName(m, name))
	var text string
	style := th.Text
	revokedBy := func() string {
		by := "?"
		if m.Revoke != nil {
			by = m.Revoke.Nickname
			if by == "" {
				by = name(m.Revoke.UserID)
			}
		}
		return "revoked by " + projection.SingleLine(by)
	}
	switch {
	case m.DeletedForViewer:
		// Deleted for the viewer comes first, revoked or not: their
		// devices show nothing of it, and a cell cut short keeps why.
		text = "✗ " + sender + ": deleted for " + projection.SingleLine(name(m.Viewer))
		if m.Revoked {
			text += ", also " + revokedBy()
		}
		style = th.Deleted
	case m.Revoked:
		text = "⟲ " + sender + ": " + revokedBy()
		style = th.Revoked
	default:
		read := ""
		if m.IsRead {
			read = "✓ "
		}
		text = read + sender + ": " + projection.Summary(m)
	}
	if m.Problem != "" {
		if !strings.Contains(text, "[malformed") {
			text += " [malformed: " + projection.SingleLine(m.Problem) + "]"
		}
		return "! " + text, th.Problem
	}
	return text, style
}

// SenderName is who sent m as its row names them: the message's own
// sender_nickname, the member's name when it has none. The copied row and
// the timeline say it alike.
func (t *Model) SenderName(m projection.Message) string { return senderName(m, t.Viewers().memberName) }

func senderName(m projection.Message, name func(id string) string) string {
	if m.SenderNickname != "" {
		return m.SenderNickname
	}
	return name(m.SendID)
}

// drawing lays the model's rows out on screen.
type drawing struct{ t *Model }

// rowAt reports the row at seq drawable.
func (d drawing) rowAt(seq int64) bool {
	t := d.t
	_, ok := t.tl.Rows().At(seq)
	return ok
}
