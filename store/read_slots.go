package store

import (
	"context"
	"maps"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// Slots reads the positions seqs of cid without reading or decoding the
// rest of their buckets: the cache first (seqs up to maxSeq), then the
// buckets still needed, each cut to the seqs asked of it, in one round trip
// per FindBatch buckets (FindSlots for one bucket, else FindSlotRanges). Each
// position comes back exactly as Buckets would give it (holes, markers of
// malformed slots, cached slots over stored ones); a seq below 1 or in a
// bucket not stored is a hole. For the inspector, jump-to-seq, quotes and
// the checks before a write: a few slots, never a screen.
func (s *messageReads) Slots(ctx context.Context, cid string, seqs []int64, maxSeq int64) (map[int64]bucket.StoredSlot, error) {
	return s.slotsThrough(ctx, cid, seqs, maxSeq, s.storedSlots)
}

// slotsThrough is Slots with the seqs not cached read by stored.
func (s *messageReads) slotsThrough(ctx context.Context, cid string, seqs []int64, maxSeq int64, stored slotReader) (map[int64]bucket.StoredSlot, error) {
	var cached map[int64]*bucket.Slot
	if s.cache != nil && maxSeq > 0 {
		var ask []int64
		for _, seq := range seqs {
			if seq >= 1 && seq <= maxSeq && !slices.Contains(ask, seq) {
				ask = append(ask, seq)
			}
		}
		cached = s.cachedSlots(ctx, cid, ask)
	}
	// A bucket whose every seq asked is cached needs no backend read.
	var rest []int64
	for _, seq := range seqs {
		if seq < 1 || seq > bucket.MaxSeq {
			rest = append(rest, seq) // no bucket holds it: a hole, read from nowhere
		}
	}
	cachedOnly := map[int64]bucket.StoredSlot{}
	for _, group := range byBucket(seqs) {
		if slices.ContainsFunc(group, func(seq int64) bool { return cached[seq] == nil }) {
			rest = append(rest, group...)
			continue
		}
		for _, seq := range group {
			cachedOnly[seq] = bucket.CachedSlot(seq, cached[seq])
		}
	}
	out, err := stored(ctx, cid, rest, cached)
	if err != nil {
		return nil, err
	}
	maps.Copy(out, cachedOnly)
	return out, nil
}

// byBucket groups seqs by bucket index, in the order they come.
func byBucket(seqs []int64) map[int64][]int64 {
	out := map[int64][]int64{}
	for _, seq := range seqs {
		if seq >= 1 && seq <= bucket.MaxSeq {
			out[bucket.BucketIndex(seq)] = append(out[bucket.BucketIndex(seq)], seq)
		}
	}
	return out
}

// slotReader reads seqs of cid from the backend, a slot of over replacing
// the stored one.
type slotReader func(ctx context.Context, cid string, seqs []int64, over map[int64]*bucket.Slot) (map[int64]bucket.StoredSlot, error)

// storedSlots reads seqs from the backend: one projected find for seqs
// of one bucket, else rangedSlots (FindBatch buckets a round trip, each cut
// to the span asked of it); a slot of over replaces the stored one (marked
// Unstored over a hole).
func (s *messageReads) storedSlots(ctx context.Context, cid string, seqs []int64, over map[int64]*bucket.Slot) (map[int64]bucket.StoredSlot, error) {
	groups := byBucket(seqs)
	if len(groups) != 1 {
		return s.rangedSlots(ctx, cid, seqs, over)
	}
	out := make(map[int64]bucket.StoredSlot, len(seqs))
	for _, seq := range seqs {
		out[seq] = bucket.StoredSlot{Seq: seq} // a seq no bucket can hold stays a hole
	}
	for idx, group := range groups {
		lo, hi := slotSpan(group)
		raw, sliced, err := s.backend.FindSlots(ctx, bucket.DocID(cid, idx), lo, hi-lo+1)
		if err != nil {
			return nil, err
		}
		placeSlots(out, group, idx, raw, sliced, over)
	}
	return out, nil
}

// placeSlots decodes group, seqs of bucket idx, from raw into out (sliced:
// raw's msgs starts at the group's first slot); a slot of over replaces the
// stored one.
func placeSlots(out map[int64]bucket.StoredSlot, group []int64, idx int64, raw bson.Raw, sliced bool, over map[int64]*bucket.Slot) {
	lo, hi := slotSpan(group)
	stored := bucket.DecodeSlots(raw, sliced, idx, lo, hi-lo+1)
	for _, seq := range group {
		st := stored[bucket.SlotIndex(seq)-lo]
		if c := over[seq]; c != nil {
			cs := bucket.CachedSlot(seq, c)
			cs.Unstored = st.IsHole()
			st = cs
		}
		out[seq] = st
	}
}

// slotSpan is the first and last position of seqs in their bucket.
func slotSpan(seqs []int64) (lo, hi int) {
	lo, hi = bucket.BucketSize, 0
	for _, seq := range seqs {
		lo, hi = min(lo, bucket.SlotIndex(seq)), max(hi, bucket.SlotIndex(seq))
	}
	return lo, hi
}
