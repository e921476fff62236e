package store

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// Range reads seqs from..to of cid as Slots gives them, in the round trips
// of Buckets (one per FindBatch buckets) but reading only what is asked:
// the buckets at the range's edges cut to the slots in it where the
// backend can (FindSlotRanges), the ones inside whole. For reads of a
// bounded range (a page, a jump's surroundings); a long walk goes through
// Scan. A seq in no stored bucket is a hole.
func (s *messageReads) Range(ctx context.Context, cid string, from, to, maxSeq int64) (map[int64]bucket.StoredSlot, error) {
	from, to = max(from, 1), min(to, bucket.MaxSeq)
	seqs := make([]int64, 0, max(to-from+1, 0))
	for seq := from; seq <= to; seq++ {
		seqs = append(seqs, seq)
	}
	return s.slotsThrough(ctx, cid, seqs, maxSeq, s.rangedSlots)
}

// rangedSlots reads seqs, FindBatch buckets a FindSlotRanges, each bucket
// cut to the span of the seqs asked of it.
func (s *messageReads) rangedSlots(ctx context.Context, cid string, seqs []int64, over map[int64]*bucket.Slot) (map[int64]bucket.StoredSlot, error) {
	out := make(map[int64]bucket.StoredSlot, len(seqs))
	for _, seq := range seqs {
		out[seq] = bucket.StoredSlot{Seq: seq}
	}
	groups := byBucket(seqs)
	need := slices.Sorted(maps.Keys(groups))
	for start := 0; start < len(need); start += s.FindBatch {
		batch := need[start:min(start+s.FindBatch, len(need))]
		ranges := make([]SlotRange, len(batch))
		for i, idx := range batch {
			lo, hi := slotSpan(groups[idx])
			ranges[i] = SlotRange{DocID: bucket.DocID(cid, idx), First: lo, N: hi - lo + 1}
		}
		read, err := s.backend.FindSlotRanges(ctx, ranges)
		if err != nil {
			return nil, err
		}
		if len(read) != len(ranges) {
			return nil, fmt.Errorf("read %d slot ranges, asked %d", len(read), len(ranges))
		}
		for i, idx := range batch {
			placeSlots(out, groups[idx], idx, read[i].Raw, read[i].Sliced, over)
		}
	}
	return out, nil
}
