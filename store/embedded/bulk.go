package embedded

import (
	"context"

	"github.com/chatlens/chatlens/store/bucket"
)

// InsertBuckets inserts docs one after another, stopping at the first
// that fails: on a grouped handle they share a commit anyway.
func (b *msgWrites) InsertBuckets(ctx context.Context, docs []*bucket.Doc) (int, error) {
	for i, d := range docs {
		if err := b.InsertBucket(ctx, d); err != nil {
			return i, err
		}
	}
	return len(docs), nil
}

// RaiseMaxSeqs raises each conversation's max_seq in turn.
func (b *seqs) RaiseMaxSeqs(ctx context.Context, raises []bucket.SeqRaise) error {
	for _, r := range raises {
		if err := b.RaiseMaxSeq(ctx, r.Cid, r.MaxSeq); err != nil {
			return err
		}
	}
	return nil
}
