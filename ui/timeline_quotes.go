package ui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
)

// Quotes in the held run: the slots they quote outside it are read beside
// the run, slot by slot, and kept only while a held message quotes them.

// quotedBy lists the seqs quotes in the held run quote outside it, ascending.
func (t *timeline) quotedBy() []int64 {
	held := make([]*bucket.Bucket, 0, len(t.buckets))
	for _, b := range t.buckets {
		held = append(held, b)
	}
	return projection.QuotedSeqs(held, t.minSeq(), t.maxSeq(), func(i int64) bool { return t.buckets[i] != nil })
}

// keepQuoted keeps beside the run only the slots its quotes need: those
// already kept, or in a bucket just dropped from the run rather than read
// again.
func (t *timeline) keepQuoted(dropped map[int64]*bucket.Bucket) {
	kept := map[int64]bucket.StoredSlot{}
	for _, seq := range t.quotedBy() {
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
func (t *timeline) readQuoted() tea.Cmd {
	if len(t.buckets) == 0 || t.err != nil {
		return nil
	}
	seqs := slices.DeleteFunc(t.quotedBy(), func(seq int64) bool {
		_, kept := t.quoted[seq]
		return kept || t.quotePending[seq]
	})
	if len(seqs) == 0 {
		return nil
	}
	for _, seq := range seqs {
		t.quotePending[seq] = true
	}
	r := t.readOf(nil, false)
	r.seqs = seqs
	return loadQuoted(t.e, r)
}

// quotedSlot finds a quoted seq in the run or beside it (rule 5).
func (t *timeline) quotedSlot(seq int64) (bucket.StoredSlot, bool) {
	if s, _, ok := t.slot(seq); ok {
		return s, true
	}
	s, ok := t.quoted[seq]
	return s, ok
}
