package model

import "github.com/chatlens/chatlens/store/bucket"

// kind is what one seq is to the rows.
type kind uint8

const (
	unknown kind = iota // its bucket is not read
	message             // a row of its own: a message, or a slot that breaks the contract
	hole                // a plain hole: it joins the holes beside it into one row
	absent              // its bucket is not stored: one row for the whole run of such buckets
)

// known is what has been read of the conversation's buckets: the buckets
// held whole, and two kinds of run kept without their slots, since their
// rows need none: stored buckets of plain holes only, and buckets not stored.
type known struct {
	buckets map[int64]*bucket.Bucket
	empty   spans // stored, every slot a plain hole, nothing wrong with the document
	absent  spans // not stored at all
}

func newKnown() known { return known{buckets: map[int64]*bucket.Bucket{}} }

// kindAt is what seq is, as far as what is read tells.
func (k *known) kindAt(seq int64) kind {
	idx := bucket.BucketIndex(seq)
	if b := k.buckets[idx]; b != nil {
		if plainHole(b.Slots[bucket.SlotIndex(seq)]) {
			return hole
		}
		return message
	}
	if _, ok := k.empty.find(idx); ok {
		return hole
	}
	if _, ok := k.absent.find(idx); ok {
		return absent
	}
	return unknown
}

// knows reports whether bucket idx is read, in whatever form.
func (k *known) knows(idx int64) bool {
	if k.buckets[idx] != nil {
		return true
	}
	_, e := k.empty.find(idx)
	_, a := k.absent.find(idx)
	return e || a
}

// problems reports a bucket whose document breaks the contract as a whole:
// a line is drawn above its first seq shown, so a run of holes stops there.
func (k *known) problems(idx int64) bool {
	b := k.buckets[idx]
	return b != nil && len(b.Problems) > 0
}

// take records a bucket read, held whole; one of plain holes only is also
// kept as part of a run of holes, which outlives the bucket (drop).
func (k *known) take(b *bucket.Bucket) {
	k.forget(b.Index)
	k.buckets[b.Index] = b
	if onlyPlainHoles(b) {
		k.empty = k.empty.add(b.Index, b.Index)
	}
}

// drop lets go of a held bucket; what its rows are stays known when it held
// plain holes only.
func (k *known) drop(idx int64) { delete(k.buckets, idx) }

// takeAbsent records buckets lo..hi as not stored.
func (k *known) takeAbsent(lo, hi int64) {
	for i := range k.buckets {
		if i >= lo && i <= hi {
			delete(k.buckets, i)
		}
	}
	k.empty = k.empty.remove(lo, hi)
	k.absent = k.absent.add(lo, hi)
}

func (k *known) forget(idx int64) {
	delete(k.buckets, idx)
	k.empty = k.empty.remove(idx, idx)
	k.absent = k.absent.remove(idx, idx)
}

// plainHole is a position with no message and nothing wrong with it.
func plainHole(s bucket.StoredSlot) bool { return s.IsHole() && s.Problem == "" }

func onlyPlainHoles(b *bucket.Bucket) bool {
	if len(b.Problems) > 0 {
		return false
	}
	for _, s := range b.Slots {
		if !plainHole(s) {
			return false
		}
	}
	return true
}
