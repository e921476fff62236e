package bucket

// Lookup finds another stored slot of the same conversation by seq among
// what a reader holds; false when it holds nothing for that seq. It is how
// a quote is resolved (projection rule 5).
type Lookup func(seq int64) (StoredSlot, bool)

// LookupIn finds a seq in quoted (single slots read for quotes; nil for
// none), then in the buckets that hold it (a bucket read cut holds only
// what was read).
func LookupIn(buckets []*Bucket, quoted map[int64]StoredSlot) Lookup {
	byIndex := make(map[int64]*Bucket, len(buckets))
	for _, b := range buckets {
		byIndex[b.Index] = b
	}
	return func(seq int64) (StoredSlot, bool) {
		if s, ok := quoted[seq]; ok {
			return s, true
		}
		if b := byIndex[BucketIndex(seq)]; b != nil && b.Holds(seq) {
			return b.Slots[SlotIndex(seq)], true
		}
		return StoredSlot{}, false
	}
}
