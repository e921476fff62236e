package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

// Quotes in the held run: the buckets they quote are read beside the run
// and kept only while a held message quotes them.

// quotedBy lists the buckets quotes in the held run quote, but those have
// reports.
func (t *timeline) quotedBy(have func(int64) bool) []int64 {
	held := make([]*store.Bucket, 0, len(t.buckets))
	for _, b := range t.buckets {
		held = append(held, b)
	}
	return projection.QuotedBuckets(held, t.minSeq(), t.maxSeq(), have)
}

// keepQuoted keeps beside the run only the buckets its quotes need: those
// already kept, or just dropped from the run rather than read again.
func (t *timeline) keepQuoted(dropped map[int64]*store.Bucket) {
	kept := map[int64]*store.Bucket{}
	for _, i := range t.quotedBy(func(i int64) bool { return t.buckets[i] != nil }) {
		if b := t.quoted[i]; b != nil {
			kept[i] = b
		} else if b := dropped[i]; b != nil {
			kept[i] = b
		}
	}
	t.quoted = kept
}

// readQuoted reads what quotes in the run need and nothing holds. Rare: the
// read that brought a bucket brought what it quotes, unless that was held
// when asked for and dropped before the reply.
func (t *timeline) readQuoted() tea.Cmd {
	if len(t.buckets) == 0 || t.err != nil {
		return nil
	}
	var idx []int64
	for _, i := range t.quotedBy(func(i int64) bool { return t.buckets[i] != nil || t.quoted[i] != nil }) {
		if !t.quotePending[i] {
			t.quotePending[i] = true
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	return loadQuoted(t.e, t.readOf(idx, false))
}

// quotedSlot finds a quoted seq in the run or beside it (rule 5).
func (t *timeline) quotedSlot(seq int64) (store.StoredSlot, bool) {
	if s, _, ok := t.slot(seq); ok {
		return s, true
	}
	if b := t.quoted[store.BucketIndex(seq)]; b != nil {
		return b.Slots[store.SlotIndex(seq)], true
	}
	return store.StoredSlot{}, false
}
