package store

import "context"

// Scan reads the buckets holding seqs from..to of w's conversation, oldest
// first, FindBatch buckets per find, and calls fn with each batch. The
// newest bucket the window already read (w.Last) is reused, not read again.
// Only one batch is held at a time, however long the range.
func (s *Store) Scan(ctx context.Context, w *Window, from, to int64, fn func(batch []*Bucket) error) error {
	indexes := BucketsCovering(from, to)
	for start := 0; start < len(indexes); start += s.FindBatch {
		want := indexes[start:min(start+s.FindBatch, len(indexes))]
		toRead := want
		if w.Last != nil && want[len(want)-1] == w.Last.Index {
			toRead = want[:len(want)-1]
		}
		var batch []*Bucket
		if len(toRead) > 0 {
			var err error
			if batch, err = s.Buckets(ctx, w.Cid, toRead, w.MaxSeq); err != nil {
				return err
			}
		}
		if len(toRead) < len(want) {
			batch = append(batch, w.Last)
		}
		if err := fn(batch); err != nil {
			return err
		}
	}
	return nil
}
