package store

import (
	"context"
	"slices"
	"sort"

	"github.com/chatlens/chatlens/store/bucket"
)

// HoleSendTimes are the send times OpenIM puts on the stand-ins it returns,
// in one pull of a range of seqs, for the seqs that hold no message
// (mgo/msg.go FindSeqs). OpenIM takes the holes of the pull newest first;
// for each it looks for the newest stored message before it
// (findBeforeSendTime: in the seq's bucket up to the seq, then in each
// bucket below, whole; for a seq that ends a bucket it skips that bucket),
// reuses that answer for every lower hole at or above the message found,
// and stops looking, leaving 0, at the first hole with nothing before it.
type HoleSendTimes struct {
	spans []timeSpan // ascending, not overlapping
}

// timeSpan gives send time t to the holes in lo..hi.
type timeSpan struct{ lo, hi, t int64 }

// At is the send time of the stand-in for a hole at seq (0 if none).
func (h *HoleSendTimes) At(seq int64) int64 {
	i := sort.Search(len(h.spans), func(i int) bool { return h.spans[i].hi >= seq })
	if i < len(h.spans) && h.spans[i].lo <= seq {
		return h.spans[i].t
	}
	return 0
}

// found is a message findBeforeSendTime returns: its msg.seq and send time.
// below marks "whatever is stored below the first bucket read", looked up
// only if needed.
type found struct {
	seq, t int64
	below  bool
}

// holeRun is a run of holes lo..hi of the range, and the newest message
// before lo.
type holeRun struct {
	lo, hi int64
	prev   found
}

// bucketEnd is the newest message in the buckets up to index.
type bucketEnd struct {
	index int64
	last  found
}

// HoleSendTimes works out the stand-in send times for the holes of w's
// conversation in from..to, as one OpenIM pull of that range gives them.
// It reads the range once (Scan) and, only when a hole has no message
// before it in the range, the stored buckets below, newest first.
func (s *messageReads) HoleSendTimes(ctx context.Context, w *bucket.Window, from, to int64) (*HoleSendTimes, error) {
	var runs []holeRun
	var ends []bucketEnd
	last := found{below: true}
	next := from // the next seq of the range not yet seen
	addHoles := func(lo, hi int64) {
		if n := len(runs); n > 0 && runs[n-1].hi == lo-1 {
			runs[n-1].hi = hi
			return
		}
		runs = append(runs, holeRun{lo: lo, hi: hi, prev: last})
	}
	// The first bucket is read from its start: a hole's send time may be
	// a message's before from in it.
	err := s.scanReading(ctx, w, from, to, bucket.FirstSeq(bucket.BucketIndex(max(from, 1))), func(batch []*bucket.Bucket) error {
		for _, b := range batch {
			if first := max(from, bucket.FirstSeq(b.Index)); first > next {
				addHoles(next, first-1) // buckets not stored: holes
			}
			for _, st := range b.Slots {
				switch {
				case st.Seq > to:
				case !st.IsHole() && st.Slot.Msg.SendTime > 0:
					last = found{seq: st.Slot.Msg.Seq, t: st.Slot.Msg.SendTime}
				case st.Seq >= from && st.IsHole():
					addHoles(st.Seq, st.Seq)
				}
			}
			next = max(next, min(bucket.LastSeq(b.Index), to)+1)
			ends = append(ends, bucketEnd{b.Index, last})
		}
		return nil
	}, nil) // a run without buckets is a run of holes: found from next above
	if err != nil {
		return nil, err
	}
	if next <= to {
		addHoles(next, to)
	}
	var belowT, belowSeq int64
	belowRead := false
	resolve := func(f found) (found, error) {
		if !f.below {
			return f, nil
		}
		if !belowRead {
			var err error
			if belowSeq, belowT, err = s.newestBefore(ctx, w.Cid, bucket.BucketIndex(from)); err != nil {
				return f, err
			}
			belowRead = true
		}
		return found{seq: belowSeq, t: belowT}, nil
	}
	// newestBelowBucket is the newest message in the buckets below index.
	newestBelowBucket := func(index int64) found {
		i := sort.Search(len(ends), func(i int) bool { return ends[i].index >= index })
		if i == 0 {
			return found{below: true}
		}
		return ends[i-1].last
	}
	h := &HoleSendTimes{}
	var state found // the last answer found; t 0 before any
	for k := len(runs) - 1; k >= 0; k-- {
		r := runs[k]
		for seq := r.hi; seq >= r.lo; {
			if state.t > 0 && state.seq <= seq {
				lo := max(state.seq, r.lo)
				h.spans = append(h.spans, timeSpan{lo, seq, state.t})
				seq = lo - 1
				continue
			}
			before := r.prev // every seq of the run below seq is a hole
			if seq%bucket.BucketSize == 0 && bucket.FirstSeq(bucket.BucketIndex(seq)) <= r.lo {
				before = newestBelowBucket(bucket.BucketIndex(seq))
			}
			f, err := resolve(before)
			if err != nil {
				return nil, err
			}
			if f.t <= 0 { // OpenIM stops looking: every lower hole keeps 0
				slices.Reverse(h.spans)
				return h, nil
			}
			state = f
			h.spans = append(h.spans, timeSpan{seq, seq, f.t})
			seq--
		}
	}
	slices.Reverse(h.spans)
	return h, nil
}

// newestBefore is the newest message (msg.seq and send time) stored in a
// bucket of cid below index, reading the stored buckets newest first,
// FindBatch at a time, until one holds a message; zeros when none does.
func (s *messageReads) newestBefore(ctx context.Context, cid string, index int64) (seq, sendTime int64, err error) {
	ids, err := s.backend.BucketIDs(ctx, cid)
	if err != nil {
		return 0, 0, err
	}
	var older []int64
	for _, id := range ids {
		if c, idx, err := bucket.ParseDocID(id); err == nil && c == cid && idx < index {
			older = append(older, idx)
		}
	}
	slices.Sort(older)
	slices.Reverse(older)
	for start := 0; start < len(older); start += s.FindBatch {
		// maxSeq 0: the stored buckets only, as OpenIM's search reads MongoDB.
		bs, err := s.Buckets(ctx, cid, older[start:min(start+s.FindBatch, len(older))], 0)
		if err != nil {
			return 0, 0, err
		}
		for _, b := range bs { // newest first, as asked
			for i := bucket.BucketSize - 1; i >= 0; i-- {
				if st := b.Slots[i]; !st.IsHole() && st.Slot.Msg.SendTime > 0 {
					return st.Slot.Msg.Seq, st.Slot.Msg.SendTime, nil
				}
			}
		}
	}
	return 0, 0, nil
}
