package timeline

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// A conversation may have buckets stored far apart (a bucket at index
// 10,000,000 beside the first one). The timeline holds such a run of
// buckets with nothing stored as one gap: one row, skipped whole by the
// cursor, found with one look at the doc_id index, never read bucket by
// bucket.

// gap is a run of bucket indexes lo..hi, inside the held run, none stored.
type gap struct{ lo, hi int64 }

// gapAt is the held gap holding bucket idx.
func (t *Model) gapAt(idx int64) (gap, bool) {
	for _, g := range t.gaps {
		if idx >= g.lo && idx <= g.hi {
			return g, true
		}
	}
	return gap{}, false
}

// gapSeqs is the seqs of g inside the window; its row is drawn at from,
// as a run of holes is: both are labelled by their first seq.
func (t *Model) gapSeqs(g gap) (from, to int64) {
	return max(bucket.FirstSeq(g.lo), t.minSeq()), min(bucket.LastSeq(g.hi), t.maxSeq())
}

// rowOf is seq, or the row of the gap holding it.
func (t *Model) rowOf(seq int64) int64 {
	if g, ok := t.gapAt(bucket.BucketIndex(seq)); ok {
		row, _ := t.gapSeqs(g)
		return row
	}
	return seq
}

// gapRow reports seq as the row of a gap, with the seqs it stands for.
func (t *Model) gapRow(seq int64) (from, to int64, ok bool) {
	if g, held := t.gapAt(bucket.BucketIndex(seq)); held {
		from, to = t.gapSeqs(g)
		return from, to, seq == from
	}
	return 0, 0, false
}

// nextRow and prevRow are the rows below and above the one at seq.
func (t *Model) nextRow(seq int64) int64 {
	if _, to, ok := t.gapRow(seq); ok {
		return t.rowOf(to + 1)
	}
	return t.rowOf(seq + 1)
}

func (t *Model) prevRow(seq int64) int64 { return t.rowOf(seq - 1) }

// stepRows moves seq by n rows, down for n > 0.
func (t *Model) stepRows(seq, n int64) int64 {
	for ; n > 0; n-- {
		seq = t.nextRow(seq)
	}
	for ; n < 0; n++ {
		seq = t.prevRow(seq)
	}
	return seq
}

// units are the held run in order: each a bucket (lo == hi, not a gap) or
// a gap. Their count follows the buckets held, never the indexes spanned.
func (t *Model) units() []gap {
	var out []gap
	for i := t.lo; len(t.buckets)+len(t.gaps) > 0 && i <= t.hi; {
		if g, ok := t.gapAt(i); ok {
			out = append(out, g)
			i = g.hi + 1
			continue
		}
		out = append(out, gap{i, i})
		i++
	}
	return out
}

// takeGap holds g at an end of the run; false when it does not join it.
func (t *Model) takeGap(g gap) bool {
	switch {
	case len(t.buckets)+len(t.gaps) == 0:
		t.lo, t.hi = g.lo, g.hi
	case g.hi == t.lo-1:
		t.lo = g.lo
	case g.lo == t.hi+1:
		t.hi = g.hi
	default:
		return false
	}
	t.gaps = append(t.gaps, g)
	return true
}

// dropNotStored lets go of a bucket at an end of the run that came back
// with nothing stored, unless the cursor is in it, and asks for the gap it
// starts instead: one more find, then one row however long the gap.
func (t *Model) dropNotStored() tea.Cmd {
	var cmds []tea.Cmd
	cb := bucket.BucketIndex(t.cursor)
	for _, end := range []int64{t.lo, t.hi} {
		b := t.buckets[end]
		if b == nil || end == cb || !store.NotStored(b) || t.pending[end] {
			continue
		}
		delete(t.buckets, end)
		if end == t.lo {
			t.lo++
		} else {
			t.hi--
		}
		cmds = append(cmds, t.requestEdge(end, end < cb))
	}
	return tea.Batch(cmds...)
}

// requestEdge reads bucket idx at an end of the run; when it holds nothing,
// the read finds the nearest stored bucket beyond it (older or newer) and
// brings that, with the gap between.
func (t *Model) requestEdge(idx int64, older bool) tea.Cmd {
	t.pending[idx] = true
	t.fetched++
	r := t.readOf([]int64{idx}, false)
	r.skipGap = 1
	if older {
		r.skipGap = -1
	}
	return loadBuckets(t.e, r)
}

// findGap runs in a command: bucket idx came back with nothing stored; it
// lists the stored buckets beyond it (one look at the doc_id index) and
// returns the gap up to the nearest one, and that one's index (-1: none
// inside the window).
func findGap(e *common.Common, r bucketRequest, idx int64) (gap, int64, error) {
	w := bucket.Window{Cid: r.cid, MinSeq: r.minSeq, MaxSeq: r.maxSeq}
	from, to := r.minSeq, bucket.FirstSeq(idx)-1
	if r.skipGap > 0 {
		from, to = bucket.LastSeq(idx)+1, r.maxSeq
	}
	stored, err := e.Store.StoredIndexes(e.Ctx, &w, from, to)
	if err != nil || len(stored) == 0 {
		if r.skipGap > 0 {
			return gap{idx, bucket.BucketIndex(r.maxSeq)}, -1, err
		}
		return gap{bucket.BucketIndex(r.minSeq), idx}, -1, err
	}
	if r.skipGap > 0 {
		return gap{idx, stored[0] - 1}, stored[0], nil
	}
	k := stored[len(stored)-1]
	return gap{k + 1, idx}, k, nil
}

// gapLine is the row drawn for a gap.
func gapLine(from, to int64) string {
	return projection.HoleRun(from, to) + ", no bucket stored"
}

// heldIndexes lists the held buckets in order.
func (t *Model) heldIndexes() []int64 {
	out := make([]int64, 0, len(t.buckets))
	for i := range t.buckets {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}
