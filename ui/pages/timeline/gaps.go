package timeline

import (
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// A conversation may have buckets stored far apart (a bucket at index
// 10,000,000 beside the first one). Such a run of buckets with nothing
// stored is one row, skipped whole by the cursor, found with one look at
// the doc_id index, never read bucket by bucket.

// gap is a run of bucket indexes lo..hi, none stored.
type gap struct{ lo, hi int64 }

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

// gapAtCursor is the gap the cursor is on, as buckets.
func (d drawing) gapAtCursor() (gap, bool) {
	t := d.t
	r, ok := t.tl.Rows().At(t.tl.Cursor())
	if !ok || r.Kind != model.RowGap {
		return gap{}, false
	}
	return gap{bucket.BucketIndex(r.First), bucket.BucketIndex(r.Last)}, true
}

// gapLine is the row drawn for a gap.
func gapLine(from, to int64) string {
	return projection.HoleRun(from, to) + ", no bucket stored"
}
