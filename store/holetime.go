package store

import (
	"context"
	"slices"
)

// HoleSendTimes works out the send time OpenIM puts on the stand-in it
// returns for a seq that holds no message (mgo/msg.go FindSeqs with
// findBeforeSendTime): the send time of the newest stored message before
// it. OpenIM looks in the seq's own bucket up to the seq, then in each
// bucket below, whole; for a seq that ends a bucket (a multiple of 100) it
// skips the seq's own bucket and starts from the one below. 0 when no
// earlier message exists. (When one pull asks for several holes, OpenIM
// may reuse the answer of a higher hole for a lower one; this is the
// answer for each seq on its own.)
//
// Feed it the buckets of a conversation oldest first; it reads older
// buckets only when a hole comes before any message it was given.
type HoleSendTimes struct {
	s     *Store
	cid   string
	next  int64 // the bucket index that may follow the last one given; -1 before any
	below int64 // send time of the newest message before bucket next
	known bool  // below is known
}

// HoleSendTimes starts working out hole send times for cid.
func (s *Store) HoleSendTimes(cid string) *HoleSendTimes {
	return &HoleSendTimes{s: s, cid: cid, next: -1}
}

// Bucket returns, for each position of b, the send time of the stand-in
// OpenIM returns for that seq if it holds no message.
func (h *HoleSendTimes) Bucket(ctx context.Context, b *Bucket) ([BucketSize]int64, error) {
	var out [BucketSize]int64
	if b.Index < h.next || h.next < 0 {
		h.known = false // not in order: what came before says nothing
	}
	belowThis := func() (int64, error) {
		if !h.known {
			t, err := h.newestBefore(ctx, b.Index)
			if err != nil {
				return 0, err
			}
			h.below, h.known = t, true
		}
		return h.below, nil
	}
	var last int64 // send time of the newest message at the positions seen
	for i, st := range b.Slots {
		if st.IsHole() {
			if i == BucketSize-1 || last == 0 {
				t, err := belowThis()
				if err != nil {
					return out, err
				}
				out[i] = t
			} else {
				out[i] = last
			}
		}
		if t := sendTimeOf(st); t > 0 {
			last = t
		}
	}
	if last > 0 { // else what was below b is still what is below the next
		h.below, h.known = last, true
	}
	h.next = b.Index + 1
	return out, nil
}

// sendTimeOf is the send time of the message at st, 0 for a hole.
func sendTimeOf(st StoredSlot) int64 {
	if st.IsHole() {
		return 0
	}
	return st.Slot.Msg.SendTime
}

// newestBefore is the send time of the newest message stored in a bucket
// of h.cid below index, reading the stored buckets newest first, FindBatch
// at a time, until one holds a message.
func (h *HoleSendTimes) newestBefore(ctx context.Context, index int64) (int64, error) {
	s := h.s
	s.trip()
	ids, err := s.backend.BucketIDs(ctx, h.cid)
	if err != nil {
		return 0, err
	}
	var older []int64
	for _, id := range ids {
		if c, idx, err := ParseDocID(id); err == nil && c == h.cid && idx < index {
			older = append(older, idx)
		}
	}
	slices.Sort(older)
	slices.Reverse(older)
	for start := 0; start < len(older); start += s.FindBatch {
		batch := older[start:min(start+s.FindBatch, len(older))]
		want := make([]string, len(batch))
		for i, idx := range batch {
			want[i] = DocID(h.cid, idx)
		}
		s.trip()
		raws, err := s.backend.FindBuckets(ctx, want)
		if err != nil {
			return 0, err
		}
		byIndex := map[int64]*Bucket{}
		for _, raw := range raws {
			b := DecodeBucket(raw)
			byIndex[b.Index] = b
		}
		for _, idx := range batch {
			if b := byIndex[idx]; b != nil {
				for i := BucketSize - 1; i >= 0; i-- {
					if t := sendTimeOf(b.Slots[i]); t > 0 {
						return t, nil
					}
				}
			}
		}
	}
	return 0, nil
}
