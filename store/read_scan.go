package store

import (
	"context"
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// Scan reads the buckets holding seqs from..to of w's conversation, oldest
// first, FindBatch buckets per find, the ones at the range's edges cut to
// the seqs in it where the backend can (a bucket read cut holds only those:
// bucket.Holds), and calls fn with each batch of buckets
// that hold anything and gap (when not nil) with each run of seqs (within from..to) whose
// buckets are neither stored nor cached, in seq order. The newest bucket the
// window already read (w.Last) is reused, not read again. Only one batch is
// held at a time, and nothing is allocated by seq count: a range of more
// buckets than one find reads asks the doc_id index which buckets exist and
// walks only those, so a bucket stored at index 10,000,000 costs one gap,
// not ten million reads.
func (s *messageReads) Scan(ctx context.Context, w *bucket.Window, from, to int64, fn func(batch []*bucket.Bucket) error, gap func(from, to int64) error) error {
	return s.scanReading(ctx, w, from, to, from, fn, gap)
}

// scanReading is Scan reading the first bucket from seq readFrom (at most
// from, in from's bucket) on: for a reader that needs the slots before
// from in it.
func (s *messageReads) scanReading(ctx context.Context, w *bucket.Window, from, to, readFrom int64, fn func(batch []*bucket.Bucket) error, gap func(from, to int64) error) error {
	from, to = max(from, 1), min(to, bucket.MaxSeq)
	readFrom = max(min(readFrom, from), bucket.FirstSeq(bucket.BucketIndex(from)))
	if to < from {
		return nil
	}
	indexes, err := s.walkIndexes(ctx, w, from, to)
	if err != nil {
		return err
	}
	next := from // the first seq not yet handed to fn or gap
	gapTo := func(end int64) error {
		if end >= next && gap != nil {
			if err := gap(next, end); err != nil {
				return err
			}
		}
		return nil
	}
	for start := 0; start < len(indexes); start += s.FindBatch {
		if err := ctx.Err(); err != nil {
			return err
		}
		want := indexes[start:min(start+s.FindBatch, len(indexes))]
		toRead := want
		if w.Last != nil && want[len(want)-1] == w.Last.Index {
			toRead = want[:len(want)-1]
		}
		var read []*bucket.Bucket
		if len(toRead) > 0 {
			if read, err = s.bucketsIn(ctx, w.Cid, toRead, w.MaxSeq, readFrom, to); err != nil {
				return err
			}
		}
		if len(toRead) < len(want) {
			read = append(read, w.Last)
		}
		// fn and gap see the seqs in order: the buckets before a gap are
		// handed over before the gap, the ones after it after.
		var batch []*bucket.Bucket
		flush := func() error {
			if len(batch) == 0 {
				return nil
			}
			err := fn(batch)
			batch = nil
			return err
		}
		for _, b := range read {
			if NotStored(b) {
				continue
			}
			if bucket.FirstSeq(b.Index)-1 >= next && gap != nil {
				if err := flush(); err != nil {
					return err
				}
				if err := gapTo(bucket.FirstSeq(b.Index) - 1); err != nil {
					return err
				}
			}
			batch = append(batch, b)
			next = bucket.LastSeq(b.Index) + 1
		}
		if err := flush(); err != nil {
			return err
		}
	}
	return gapTo(to)
}

// NotStored reports a bucket read back as neither stored nor cached: every
// position empty, nothing wrong with it (a stored bucket of empty slots has
// slots, in the part read of one read cut too; a broken one has problems).
func NotStored(b *bucket.Bucket) bool {
	if len(b.Problems) > 0 {
		return false
	}
	for _, st := range b.Slots {
		if st.Slot != nil || st.Problem != "" || st.Cached {
			return false
		}
	}
	return true
}

// walkIndexes lists the buckets Scan reads for from..to: all of them when
// one find covers the range, else the ones StoredIndexes lists.
func (s *messageReads) walkIndexes(ctx context.Context, w *bucket.Window, from, to int64) ([]int64, error) {
	if bucket.BucketIndex(to)-bucket.BucketIndex(from) < int64(s.FindBatch) {
		return bucket.BucketsCovering(from, to), nil
	}
	out, err := s.StoredIndexes(ctx, w, from, to)
	if err != nil {
		return nil, err
	}
	if w.Last != nil && w.Last.Index >= bucket.BucketIndex(from) && w.Last.Index <= bucket.BucketIndex(to) {
		out = append(out, w.Last.Index)
		slices.Sort(out)
		out = slices.Compact(out)
	}
	return out, nil
}

// StoredIndexes lists, ascending, the stored buckets of w's conversation
// that hold seqs from..to, from the doc_id index alone (one round trip),
// plus the one holding the window's max seq when a cache is configured:
// Redis may hold its slots before the backend does. A reader walking a
// long range walks these, so its cost follows the buckets stored, never
// the seq count.
func (s *messageReads) StoredIndexes(ctx context.Context, w *bucket.Window, from, to int64) ([]int64, error) {
	lo, hi := bucket.BucketIndex(max(from, 1)), bucket.BucketIndex(min(to, bucket.MaxSeq))
	ids, err := s.backend.BucketIDs(ctx, w.Cid)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, id := range ids {
		if c, idx, err := bucket.ParseDocID(id); err == nil && c == w.Cid && idx >= lo && idx <= hi {
			out = append(out, idx)
		}
	}
	if s.cache != nil && w.MaxSeq >= from && w.MaxSeq <= to {
		out = append(out, bucket.BucketIndex(w.MaxSeq))
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
