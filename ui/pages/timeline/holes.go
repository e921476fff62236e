package timeline

import (
	"errors"
	"fmt"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// Runs of two or more seqs without a message are drawn as one row
// ("· seqs 151–10085: no message (9,935)") and the cursor steps over them
// as over one message. A run stops where a line is drawn between seqs (a
// bucket boundary, a malformed bucket, the read line).

// plainHole is a seq of the window, held, with no message and no problem.
func (t *Model) plainHole(seq int64) bool {
	if seq < t.minSeq() || seq > t.maxSeq() {
		return false
	}
	s, _, ok := t.Slot(seq)
	return ok && s.IsHole() && s.Problem == ""
}

// joinsRun reports seq continuing the run of holes that seq-1 is in.
func (t *Model) joinsRun(seq int64) bool {
	return t.plainHole(seq-1) && t.plainHole(seq) && !t.showBoundary(seq) &&
		t.bucketProblem(seq) == "" && !t.showReadLine(seq-1)
}

// indexHoleRuns finds the runs of the held seqs: runOf maps every seq of a
// run to its first and last seq. Called before drawing or moving, so it
// follows the buckets, the window and the boundaries shown.
func (t *Model) indexHoleRuns() {
	t.runOf = map[int64][2]int64{}
	if len(t.buckets) == 0 {
		return
	}
	from, to := t.heldRange()
	// Step by rows: a run of buckets with nothing stored is one row (a
	// gap), never walked seq by seq.
	for s := from; s <= to; s = t.nextRow(s) {
		if !t.plainHole(s) || t.joinsRun(s) {
			continue
		}
		end := s
		for end < to && t.joinsRun(end+1) {
			end++
		}
		if end > s {
			for i := s; i <= end; i++ {
				t.runOf[i] = [2]int64{s, end}
			}
		}
		s = end
	}
}

// snapToRun puts the cursor and the top of the screen on the first seq of
// the run they are in: a run is one row.
func (t *Model) snapToRun() {
	if r, ok := t.runOf[t.cursor]; ok {
		t.cursor = r[0]
	}
	if r, ok := t.runOf[t.top]; ok {
		t.top = r[0]
	}
}

// runOpen reports a run that reaches the edge of what is held while the
// window goes on: the seqs beyond are not known yet.
func (t *Model) runOpen(r [2]int64) bool {
	from, to := t.heldRange()
	return r[0] == from && from > t.minSeq() || r[1] == to && to < t.maxSeq()
}

// holeRunLine is the row of run r.
func (t *Model) holeRunLine(r [2]int64, width, seqWidth int) string {
	th := t.e.Theme
	marker, style := "  ", th.Hole
	if t.cursor >= r[0] && t.cursor <= r[1] {
		marker, style = t.marker(t.cursor), th.Selected
	}
	text := projection.HoleRun(r[0], r[1])
	if t.runOpen(r) {
		text += " …" // the run goes on past what is read
	}
	line := fmt.Sprintf("%s%*d %*s %s", marker, seqWidth, r[0], len(t.clockFmt), "", text)
	return style.Render(common.PadRight(projection.Truncate(line, width), width))
}

// stepOverRun moves the cursor one row down or up when it is on a run:
// past its last seq, or onto the first seq of the run above. ok is false
// when the cursor is on no run and the move is an ordinary one.
func (t *Model) stepOverRun(delta int64) (cmd tea.Cmd, ok bool) {
	t.indexHoleRuns()
	if delta == 1 {
		if r, in := t.runOf[t.cursor]; in {
			if _, to := t.heldRange(); r[1] == to && to < t.maxSeq() {
				return t.nextMessage(1), true // the run goes on past what is held
			}
			return t.move(r[1]+1-t.cursor, false), true
		}
		return nil, false
	}
	if r, in := t.runOf[t.cursor-1]; in && delta == -1 {
		if from, _ := t.heldRange(); r[0] == from && from > t.minSeq() {
			return t.nextMessage(-1), true
		}
		return t.move(r[0]-t.cursor, false), true
	}
	return nil, false
}

// nextMessage goes to the nearest seq after (dir 1) or before (dir -1) the
// cursor that holds a message, however many holes and missing buckets lie
// between: the held buckets first, then only the buckets that exist (the
// doc_id index tells which), in order, a batch per find.
func (t *Model) nextMessage(dir int64) tea.Cmd {
	from, to := t.heldRange()
	for s := t.stepRows(t.cursor, dir); len(t.buckets) > 0 && s >= from && s <= to; s = t.stepRows(s, dir) {
		if _, _, ok := t.Slot(s); ok && !t.plainHole(s) && s >= t.minSeq() && s <= t.maxSeq() {
			return t.jumpTo(s)
		}
	}
	edge := to
	if dir < 0 {
		edge = from
	}
	if len(t.buckets) == 0 {
		edge = t.cursor
	}
	t.jumpReq = t.e.NewReq()
	e, req, cid, minSeq, maxSeq := t.e, t.jumpReq, t.cid, t.minSeq(), t.maxSeq()
	return func() tea.Msg {
		seq, err := findMessageBeyond(e, cid, edge, dir, minSeq, maxSeq)
		return jumpResolvedMsg{req: req, seq: seq, err: err}
	}
}

// findMessageBeyond is the first seq past edge in direction dir holding a
// message, within minSeq..maxSeq.
func findMessageBeyond(e *common.Common, cid string, edge, dir, minSeq, maxSeq int64) (int64, error) {
	ids, err := e.Store.Backend().BucketIDs(e.Ctx, cid)
	if err != nil {
		return 0, err
	}
	var idx []int64
	for _, id := range ids {
		if _, i, err := bucket.ParseDocID(id); err == nil && i >= bucket.BucketIndex(minSeq) && i <= bucket.BucketIndex(maxSeq) &&
			(dir > 0 && i >= bucket.BucketIndex(edge+1) || dir < 0 && i <= bucket.BucketIndex(edge-1)) {
			idx = append(idx, i)
		}
	}
	slices.Sort(idx)
	if dir < 0 {
		slices.Reverse(idx)
	}
	for start := 0; start < len(idx); start += max(1, e.Store.FindBatch) {
		batch := idx[start:min(start+max(1, e.Store.FindBatch), len(idx))]
		bs, err := e.Store.Buckets(e.Ctx, cid, batch, maxSeq)
		if err != nil {
			return 0, err
		}
		best := int64(0)
		for _, b := range bs {
			for _, s := range b.Slots {
				beyond := dir > 0 && s.Seq > edge || dir < 0 && s.Seq < edge
				if !beyond || s.Seq < minSeq || s.Seq > maxSeq || s.IsHole() && s.Problem == "" {
					continue
				}
				if best == 0 || dir > 0 && s.Seq < best || dir < 0 && s.Seq > best {
					best = s.Seq
				}
			}
		}
		if best > 0 {
			return best, nil
		}
	}
	if dir > 0 {
		return 0, errors.New("no message after this one")
	}
	return 0, errors.New("no message before this one")
}
