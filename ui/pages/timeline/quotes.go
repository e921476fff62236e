package timeline

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// Quotes in the held run: the slots they quote outside it are read beside
// the run, slot by slot, and kept only while a held message quotes them.

// quotedBy lists the seqs quotes in the held run quote outside it, ascending.
func (q quoter) quotedBy() []int64 {
	t := q.t
	var out []int64
	for _, i := range t.tl.HeldIndexes() {
		for _, r := range t.quote.quotesOf(t.tl.Held(i)) {
			if r.seq >= t.Viewers().minSeq() && r.seq <= t.Viewers().MaxSeq() && t.tl.Held(bucket.BucketIndex(r.quoted)) == nil && !slices.Contains(out, r.quoted) {
				out = append(out, r.quoted)
			}
		}
	}
	for b := range t.quoteRefs {
		if t.tl.Held(b.Index) != b {
			delete(t.quoteRefs, b) // no longer held
		}
	}
	slices.Sort(out)
	return out
}

// quoteRef is a quote at seq of the message at quoted.
type quoteRef struct{ seq, quoted int64 }

// quotesOf lists the quotes of b, found once per bucket read (a bucket is
// never changed once decoded; a re-read is a new one): parsing every
// quote's JSON on each key press cost 0.8 ms a key, 200 ms a burst of 250.
func (q quoter) quotesOf(b *bucket.Bucket) []quoteRef {
	t := q.t
	if refs, ok := t.quoteRefs[b]; ok {
		return refs
	}
	refs := []quoteRef{}
	for _, s := range b.Slots {
		if q, ok := projection.QuotedBy(s); ok {
			refs = append(refs, quoteRef{s.Seq, q})
		}
	}
	if t.quoteRefs == nil {
		t.quoteRefs = map[*bucket.Bucket][]quoteRef{}
	}
	t.quoteRefs[b] = refs
	return refs
}

// keepQuoted keeps beside the held buckets only the slots their quotes
// need: those already kept, or in a bucket the model just let go of rather
// than read again.
func (q quoter) keepQuoted() {
	t := q.t
	dropped := map[int64]*bucket.Bucket{}
	for _, b := range t.tl.TakeDropped() {
		dropped[b.Index] = b
	}
	kept := map[int64]bucket.StoredSlot{}
	for _, seq := range t.quote.quotedBy() {
		if s, ok := t.quoted[seq]; ok {
			kept[seq] = s
		} else if b := dropped[bucket.BucketIndex(seq)]; b != nil {
			kept[seq] = b.Slots[bucket.SlotIndex(seq)]
		}
	}
	t.quoted = kept
}

// readQuoted reads the slots quotes in the run need and nothing holds.
// Rare: the read that brought a bucket brought what it quotes, unless that
// was held when asked for and dropped before the reply.
func (q quoter) readQuoted() tea.Cmd {
	t := q.t
	if len(t.tl.HeldIndexes()) == 0 || t.Err() != nil {
		return nil
	}
	seqs := slices.DeleteFunc(t.quote.quotedBy(), func(seq int64) bool {
		_, kept := t.quoted[seq]
		return kept || t.quotePending[seq] || t.tl.PendingAt(bucket.BucketIndex(seq)) // on its way whole
	})
	if len(seqs) == 0 {
		return nil
	}
	for _, seq := range seqs {
		t.quotePending[seq] = true
	}
	r := t.load.readOf(model.Read{})
	r.seqs = seqs
	return loadQuoted(t.e, r)
}

// quotedSlot finds a quoted seq in the run or beside it (rule 5).
func (q quoter) quotedSlot(seq int64) (bucket.StoredSlot, bool) {
	t := q.t
	if s, _, ok := t.Slot(seq); ok {
		return s, true
	}
	s, ok := t.quoted[seq]
	return s, ok
}

// quoter keeps the slots quoted beside the held run.
type quoter struct{ t *Model }
