package model

import "github.com/chatlens/chatlens/store/bucket"

// The row rules: which seqs of the viewer's window make one row. A seq
// holding a message (or a slot that breaks the contract) is a row; a run of
// plain holes is one row, and so is a run of buckets not stored. A run of
// holes stops where a line is drawn between two seqs: the viewer's read
// line, a bucket boundary when boundaries are shown, a malformed bucket's
// note, and at a bucket not stored (its own row).
//
// A row is named by its first seq. The rules read only what is known and
// say which bucket they need when that is not enough (need).

// rules are the row rules for one viewer's window.
type rules struct {
	min, max   int64 // the window's seqs
	readSeq    int64 // the read line is drawn after it, when below max
	boundaries bool  // bucket boundaries are drawn
}

func rulesFor(w bucket.Window, boundaries bool) rules {
	return rules{min: max(1, w.MinSeq), max: w.MaxSeq, readSeq: w.ReadSeq, boundaries: boundaries}
}

// none: the window holds no seq.
func (r rules) none() bool { return r.max < r.min }

// need is a bucket the rules must read to go on, with the direction the
// walk was going (-1 older, 1 newer): reads ahead go that way.
type need struct{ index, dir int64 }

// lineBefore reports a line drawn between seq-1 and seq: a run of holes
// does not join across it.
func (r rules) lineBefore(k *known, seq int64) bool {
	if seq <= r.min {
		return true
	}
	if seq-1 == r.readSeq && r.readSeq < r.max {
		return true
	}
	idx := bucket.BucketIndex(seq)
	return seq == bucket.FirstSeq(idx) && (r.boundaries || k.problems(idx))
}

// rowStart is the first seq of the row holding seq.
func (r rules) rowStart(k *known, seq int64) (int64, *need) {
	for {
		switch k.kindAt(seq) {
		case unknown:
			return 0, &need{bucket.BucketIndex(seq), -1}
		case message:
			return seq, nil
		case absent:
			sp, _ := k.absent.find(bucket.BucketIndex(seq))
			first := max(bucket.FirstSeq(sp.lo), r.min)
			if first > r.min && !k.knows(sp.lo-1) {
				return 0, &need{sp.lo - 1, -1} // the run may go on below
			}
			return first, nil
		}
		// A hole: back over the holes it joins.
		if r.lineBefore(k, seq) {
			return seq, nil
		}
		switch k.kindAt(seq - 1) {
		case unknown:
			return 0, &need{bucket.BucketIndex(seq - 1), -1}
		case hole:
			seq = r.runBack(k, seq-1)
		default:
			return seq, nil
		}
	}
}

// runBack is the lowest seq the holes from seq down join without a line,
// within the run of hole-only buckets seq is in (one step for the run), or
// seq itself in a held bucket, where the walk goes seq by seq.
func (r rules) runBack(k *known, seq int64) int64 {
	idx := bucket.BucketIndex(seq)
	if k.buckets[idx] != nil {
		return seq
	}
	sp, ok := k.empty.find(idx)
	if !ok {
		return seq
	}
	low := max(bucket.FirstSeq(sp.lo), r.min)
	if r.boundaries {
		low = max(low, bucket.FirstSeq(idx))
	}
	if r.readSeq < r.max && r.readSeq+1 <= seq {
		low = max(low, r.readSeq+1)
	}
	return low
}

// rowEnd is the last seq of the row starting at (or holding) seq.
func (r rules) rowEnd(k *known, seq int64) (int64, *need) {
	switch k.kindAt(seq) {
	case unknown:
		return 0, &need{bucket.BucketIndex(seq), 1}
	case message:
		return seq, nil
	case absent:
		sp, _ := k.absent.find(bucket.BucketIndex(seq))
		last := min(bucket.LastSeq(sp.hi), r.max)
		if last < r.max && !k.knows(sp.hi+1) {
			return 0, &need{sp.hi + 1, 1} // the run may go on above
		}
		return last, nil
	}
	for seq < r.max {
		next := seq + 1
		switch k.kindAt(next) {
		case unknown:
			return 0, &need{bucket.BucketIndex(next), 1}
		case hole:
			if r.lineBefore(k, next) {
				return seq, nil
			}
			seq = r.runForward(k, next)
		default:
			return seq, nil
		}
	}
	return seq, nil
}

// runForward is the highest seq the holes from seq up join without a line,
// within the run of hole-only buckets seq is in, or seq itself in a held
// bucket.
func (r rules) runForward(k *known, seq int64) int64 {
	idx := bucket.BucketIndex(seq)
	if k.buckets[idx] != nil {
		return seq
	}
	sp, ok := k.empty.find(idx)
	if !ok {
		return seq
	}
	high := min(bucket.LastSeq(sp.hi), r.max)
	if r.boundaries {
		high = min(high, bucket.LastSeq(idx))
	}
	if r.readSeq < r.max && r.readSeq >= seq {
		high = min(high, r.readSeq)
	}
	return high
}

// next is the first seq of the row after the one starting at row; ok is
// false at the end of the window.
func (r rules) next(k *known, row int64) (int64, bool, *need) {
	end, n := r.rowEnd(k, row)
	if n != nil {
		return 0, false, n
	}
	if end >= r.max {
		return row, false, nil
	}
	return end + 1, true, nil
}

// prev is the first seq of the row before the one starting at row.
func (r rules) prev(k *known, row int64) (int64, bool, *need) {
	if row <= r.min {
		return row, false, nil
	}
	start, n := r.rowStart(k, row-1)
	if n != nil {
		return 0, false, n
	}
	return start, true, nil
}

// messageAfter is the first seq after the row at row that holds a message
// (dir 1), or before it (dir -1); ok is false when there is none in the
// window.
func (r rules) messageAfter(k *known, row, dir int64) (int64, bool, *need) {
	for {
		var (
			s  int64
			ok bool
			n  *need
		)
		if dir > 0 {
			s, ok, n = r.next(k, row)
		} else {
			s, ok, n = r.prev(k, row)
		}
		if n != nil || !ok {
			return 0, false, n
		}
		if k.kindAt(s) == message {
			return s, true, nil
		}
		row = s
	}
}
