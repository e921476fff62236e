package store

import (
	"context"
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// QuotesIn lists, ascending and once each, the seqs quoted by the slots of
// buckets with a seq in from..to whose bucket held does not report at hand
// (held may be nil). Callers pass projection.QuotedSeqs: which slot quotes
// what, and whether a viewer's projection looks it up, is a read-time rule
// (projection rule 5), so store only does the reading.
type QuotesIn func(buckets []*bucket.Bucket, from, to int64, held func(index int64) bool) []int64

// QuotedSlots is the one read that turns buckets already read into a range
// with its quotes resolved: the slots quoted from seqs from..to of buckets
// that no bucket held reports at hand, in one Slots call (the quoted slots,
// not their buckets), none when nothing is missing. The result holds only
// the slots read; Lookup joins them to the buckets at hand.
func (s *messageReads) QuotedSlots(ctx context.Context, cid string, buckets []*bucket.Bucket, from, to, maxSeq int64,
	held func(index int64) bool, quotesIn QuotesIn) (map[int64]bucket.StoredSlot, error) {
	far := quotesIn(buckets, from, to, held)
	if len(far) == 0 {
		return nil, nil
	}
	return s.Slots(ctx, cid, far, maxSeq)
}

// ScanQuoted is Scan with every quote resolved: fn gets each batch with a
// lookup holding the batch, the batch before it (a quote mostly reaches back
// a little) and whatever else the quotes in from..to of the batch need, read
// by QuotedSlots. It is how a range is read with its quotes resolved.
func (s *messageReads) ScanQuoted(ctx context.Context, w *bucket.Window, from, to int64, quotesIn QuotesIn,
	fn func(batch []*bucket.Bucket, lookup bucket.Lookup) error, gap func(from, to int64) error) error {
	var prev []*bucket.Bucket
	return s.Scan(ctx, w, from, to, func(batch []*bucket.Bucket) error {
		near := slices.Concat(prev, batch)
		held := make(map[int64]bool, len(near)) // the buckets at hand whole
		var cut []*bucket.Bucket                // and the ones read cut, in part
		for _, b := range near {
			if b.IsCut() {
				cut = append(cut, b)
			} else {
				held[b.Index] = true
			}
		}
		// A quote into the part of a cut bucket that was read is at hand;
		// one into the rest is read by QuotedSlots.
		nearQuotes := func(bs []*bucket.Bucket, from, to int64, held func(int64) bool) []int64 {
			return slices.DeleteFunc(quotesIn(bs, from, to, held), func(seq int64) bool {
				return slices.ContainsFunc(cut, func(b *bucket.Bucket) bool { return b.Holds(seq) })
			})
		}
		quoted, err := s.QuotedSlots(ctx, w.Cid, batch, from, to, w.MaxSeq, func(i int64) bool { return held[i] }, nearQuotes)
		if err != nil {
			return err
		}
		prev = batch
		return fn(batch, bucket.LookupIn(near, quoted))
	}, gap)
}
