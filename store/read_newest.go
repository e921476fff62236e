package store

import (
	"context"
	"sort"

	"github.com/chatlens/chatlens/store/bucket"
)

// newestTail is what a window read of a conversation's newest stored
// bucket: the bucket whole, or (a list of thousands of conversations) only
// its last touched slot, where its messages end and what its newest says.
type newestTail struct {
	index int64
	whole *bucket.Bucket    // read whole; nil when cut
	at    int               // cut: the position of the last touched slot, -1 none
	slot  bucket.StoredSlot // cut: the slot at at
}

// lastSent is the bucket's last sent seq as Bucket.LastSentSeq gives it
// (0: none) and whether the bucket is unreadable (msgs missing, not an
// array). A cut tail knows it when its last touched slot is sent, or
// when every slot is untouched; ok false otherwise (a hole marked read,
// a message without send time): the bucket must be read whole.
func (t *newestTail) lastSent() (seq int64, unreadable, ok bool) {
	switch {
	case t.whole != nil:
		return t.whole.LastSentSeq(), len(t.whole.Problems) > 0, true
	case t.at < 0:
		return 0, false, true
	case t.slot.Sent():
		return t.slot.Seq, false, true
	}
	return 0, false, false
}

// newestUpTo is the last filled slot at or below seq that t tells of,
// ok false when t cannot tell: seq lies before t's bucket, or before a
// cut tail's slot, or t holds no filled slot there. A seq past t's bucket
// (a max seq from the cache, which holds messages before the store does)
// gets the newest stored message.
func (t *newestTail) newestUpTo(seq int64) (*bucket.StoredSlot, bool) {
	if bucket.BucketIndex(seq) < t.index {
		return nil, false
	}
	in := bucket.BucketIndex(seq) == t.index
	seq = min(seq, bucket.LastSeq(t.index))
	if t.whole != nil {
		slot := lastFilledUpTo(t.whole, seq)
		return slot, slot != nil || in
	}
	if t.at < 0 || seq < t.slot.Seq || !t.slot.Filled() {
		return nil, false
	}
	slot := t.slot
	return &slot, true
}

// lastFilledUpTo is b's last filled slot at or below seq, a copy (nil:
// none in b).
func lastFilledUpTo(b *bucket.Bucket, seq int64) *bucket.StoredSlot {
	for i := min(bucket.SlotIndex(seq), bucket.BucketSize-1); i >= 0 && b.Slots[i].Seq <= seq; i-- {
		if b.Slots[i].Filled() {
			s := b.Slots[i]
			return &s
		}
	}
	return nil
}

// tailsAt reads the newest slots of the bucket of cid holding seq, for
// each cid -> seq of ends, keyed by cid: one FindNewestSlots, and one find
// of whole buckets for those whose slots cannot say where they end.
func (s *messageReads) tailsAt(ctx context.Context, ends map[string]int64) (map[string]*newestTail, error) {
	found := map[string]*newestTail{}
	if len(ends) == 0 {
		return found, nil
	}
	cids := make([]string, 0, len(ends))
	for cid := range ends {
		cids = append(cids, cid)
	}
	sort.Strings(cids) // the same query for the same conversations
	ids := make([]string, len(cids))
	for i, cid := range cids {
		ids[i] = bucket.DocIDForSeq(cid, ends[cid])
	}
	reads, err := s.backend.FindNewestSlots(ctx, ids)
	if err != nil {
		return nil, err
	}
	unsure := map[string]int64{}
	for i, r := range reads {
		cid, idx := cids[i], bucket.BucketIndex(ends[cids[i]])
		switch {
		case r.Raw == nil:
		case !r.Cut:
			found[cid] = &newestTail{index: idx, whole: bucket.DecodeBucket(r.Raw)}
		default:
			t := &newestTail{index: idx, at: r.At}
			if r.At >= 0 {
				t.slot = bucket.DecodeSlots(r.Raw, true, idx, r.At, 1)[0]
			}
			if _, _, ok := t.lastSent(); !ok {
				unsure[cid] = ends[cid]
				continue
			}
			found[cid] = t
		}
	}
	whole, err := s.wholeTailsAt(ctx, unsure)
	for cid, t := range whole {
		found[cid] = t
	}
	return found, err
}

// wholeTailsAt is bucketsAt, each bucket as a tail read whole.
func (s *messageReads) wholeTailsAt(ctx context.Context, ends map[string]int64) (map[string]*newestTail, error) {
	bs, err := s.bucketsAt(ctx, ends)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*newestTail, len(bs))
	for cid, b := range bs {
		out[cid] = &newestTail{index: b.Index, whole: b}
	}
	return out, nil
}

// setNewest gives each window of ws its newest message (Window.Newest:
// the last filled slot at or below its MaxSeq) from the tails the window
// read took, and reads the bucket holding MaxSeq whole, in one find for
// all, where they cannot tell (the user's cap ends the window before the
// conversation's end): that bucket becomes the window's Last.
func (s *messageReads) setNewest(ctx context.Context, ws map[string]*bucket.Window, tails map[string]*newestTail) error {
	need := map[string]int64{}
	for cid, w := range ws {
		w.Newest = nil
		if w.MaxSeq <= 0 {
			continue
		}
		if t := tails[cid]; t != nil {
			if slot, ok := t.newestUpTo(w.MaxSeq); ok {
				w.Newest = slot
				continue
			}
		}
		if w.Last != nil && w.Last.Index == bucket.BucketIndex(w.MaxSeq) {
			w.Newest = lastFilledUpTo(w.Last, w.MaxSeq)
			continue
		}
		need[cid] = w.MaxSeq
	}
	found, err := s.bucketsAt(ctx, need)
	if err != nil {
		return err
	}
	for cid, b := range found {
		// The window's newest bucket now: a timeline opened on it reuses it.
		ws[cid].Newest, ws[cid].Last = lastFilledUpTo(b, ws[cid].MaxSeq), b
	}
	return nil
}
