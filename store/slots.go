package store

import (
	"context"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Slots reads the positions seqs of cid without reading or decoding the
// rest of their buckets: the cache first (seqs up to maxSeq), then one
// FindSlots per bucket still needed, covering the seqs asked of it. Each
// position comes back exactly as Buckets would give it (holes, markers of
// malformed slots, cached slots over stored ones); a seq below 1 or in a
// bucket not stored is a hole. For the inspector, jump-to-seq, quotes and
// the checks before a write: a few slots, never a screen.
func (s *Store) Slots(ctx context.Context, cid string, seqs []int64, maxSeq int64) (map[int64]StoredSlot, error) {
	out := make(map[int64]StoredSlot, len(seqs))
	var cached map[int64]*Slot
	if s.cache != nil && maxSeq > 0 {
		var ask []int64
		for _, seq := range seqs {
			if seq >= 1 && seq <= maxSeq && !slices.Contains(ask, seq) {
				ask = append(ask, seq)
			}
		}
		cached = s.cachedSlots(ctx, cid, ask)
	}
	byBucket := map[int64][]int64{}
	var order []int64
	for _, seq := range seqs {
		if seq < 1 || seq > MaxSeq {
			out[seq] = StoredSlot{Seq: seq}
			continue
		}
		idx := BucketIndex(seq)
		if _, ok := byBucket[idx]; !ok {
			order = append(order, idx)
		}
		byBucket[idx] = append(byBucket[idx], seq)
	}
	for _, idx := range order {
		group := byBucket[idx]
		if !slices.ContainsFunc(group, func(seq int64) bool { return cached[seq] == nil }) {
			for _, seq := range group {
				out[seq] = CachedSlot(seq, cached[seq])
			}
			continue
		}
		lo, hi := BucketSize, 0
		for _, seq := range group {
			lo, hi = min(lo, SlotIndex(seq)), max(hi, SlotIndex(seq))
		}
		s.trip()
		raw, sliced, err := s.backend.FindSlots(ctx, DocID(cid, idx), lo, hi-lo+1)
		if err != nil {
			return nil, err
		}
		stored := DecodeSlots(raw, sliced, idx, lo, hi-lo+1)
		for _, seq := range group {
			st := stored[SlotIndex(seq)-lo]
			if c := cached[seq]; c != nil {
				cs := CachedSlot(seq, c)
				cs.Unstored = st.IsHole()
				st = cs
			}
			out[seq] = st
		}
	}
	return out, nil
}

// DecodeSlots decodes positions first..first+n-1 of bucket index from raw,
// as FindSlots returned it (sliced: raw's msgs starts at slot first), and
// only those: each comes back as DecodeBucket would give it. nil raw is a
// bucket not stored: all holes.
func DecodeSlots(raw bson.Raw, sliced bool, index int64, first, n int) []StoredSlot {
	out := make([]StoredSlot, n)
	for i := range out {
		out[i].Seq = FirstSeq(index) + int64(first+i)
	}
	if raw == nil {
		return out
	}
	// A msgs that is missing, not an array or not readable holds no slot:
	// the bucket's problem, as in DecodeBucket.
	v, err := raw.LookupErr("msgs")
	if err != nil {
		return out
	}
	arr, ok := v.ArrayOK()
	if !ok {
		return out
	}
	elems, err := arr.Values()
	if err != nil {
		return out
	}
	offset, end := 0, min(len(elems), BucketSize) // end: the first position the array does not reach
	if sliced {
		offset, end = first, min(first+len(elems), BucketSize)
	}
	var d slotDecoder
	for i := range out {
		pos := first + i
		if pos >= end {
			out[i].Problem = problemShortArray
			continue
		}
		d.decodeSlot(&out[i], elems[pos-offset], n-i)
	}
	return out
}
