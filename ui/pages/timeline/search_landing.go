package timeline

import (
	"maps"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
)

// Landing on a search hit: the step that found it read its bucket and the
// ones beside it, so the timeline takes them from the step instead of
// reading them again.

// landing is what a search step hands the jump to its hits: the buckets
// around them, the slots their quotes quote outside them, and the max seq
// they were read up to (a window changed since makes them stale).
type landing struct {
	buckets []*bucket.Bucket
	quoted  map[int64]bucket.StoredSlot
	maxSeq  int64
}

// inBatch tells the indexes of bs.
func inBatch(bs []*bucket.Bucket) func(int64) bool {
	in := make(map[int64]bool, len(bs))
	for _, b := range bs {
		in[b.Index] = true
	}
	return func(i int64) bool { return in[i] }
}

// landingFor keeps, of a batch with hits (the first jump may go to any of
// them: the nearest to origin), the buckets of those hits and beside them,
// with the quoted slots they need from the rest of the batch (lookup); nil
// when the batch has none.
func landingFor(bs []*bucket.Bucket, hits []int64, lookup bucket.Lookup, minSeq, maxSeq int64) *landing {
	want := map[int64]bool{}
	for _, h := range hits {
		b := bucket.BucketIndex(h)
		want[b-1], want[b], want[b+1] = true, true, true
	}
	var near []*bucket.Bucket
	for _, b := range bs {
		if want[b.Index] {
			near = append(near, b)
		}
	}
	if len(near) == 0 {
		return nil
	}
	l := &landing{buckets: near, quoted: map[int64]bucket.StoredSlot{}, maxSeq: maxSeq}
	for _, seq := range projection.QuotedSeqs(near, minSeq, maxSeq, inBatch(near)) {
		if st, ok := lookup(seq); ok {
			l.quoted[seq] = st
		}
	}
	return l
}

// giveLanding gives the model the buckets the last step with hits read
// around them, those it does not hold, so the jump to a hit reads them
// not again; the model lets them go when the cursor does not come.
func (sv Search) giveLanding() {
	t := sv.t
	l := t.search.landing
	if l == nil || l.maxSeq != t.tl.Window().MaxSeq {
		return
	}
	var give []*bucket.Bucket
	for _, b := range l.buckets {
		if t.tl.Held(b.Index) == nil {
			give = append(give, b)
		}
	}
	maps.Copy(t.quoted, l.quoted)
	t.tl.Know().Buckets(give...)
}
