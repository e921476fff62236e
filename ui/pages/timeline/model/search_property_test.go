package model

import (
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
)

// The search's part of the reference: the hits of a query are read from
// the whole conversation as the viewer sees it, and a search's steps are
// served as growing spans around where it started, each landing at a
// random moment among the other reads.

// queries are what the tests search for, each a rule on the seqs of the
// messages a viewer sees, as the page's matching of drawn text is a rule
// the model does not know: "a" every third seq, "b" one in eleven, "z" none.
var queries = map[string]func(seq int64) bool{
	"a": func(seq int64) bool { return seq%3 == 0 },
	"b": func(seq int64) bool { return seq%11 == 4 },
	"z": func(int64) bool { return false },
}

// hits are the seqs of viewer's window holding a message they see that q
// matches, ascending.
func (c conv) hits(viewer, q string) []int64 {
	key := [2]string{viewer, q}
	if h, ok := c.found[key]; ok {
		return h
	}
	h := c.readHits(viewer, q)
	c.found[key] = h
	return h
}

func (c conv) readHits(viewer, q string) []int64 {
	w := c.windows[viewer]
	if w.PulledNothing() {
		return nil
	}
	lookup := c.lookup()
	var out []int64
	var bk *bucket.Bucket
	for seq := max(1, w.MinSeq); seq <= w.MaxSeq; seq++ {
		if !queries[q](seq) {
			continue
		}
		bk = c.bucketOf(bk, seq)
		m := projection.View(bk.Slots[bucket.SlotIndex(seq)], bk.DocID, viewer, testConv, lookup)
		if !m.Hole && !m.DeletedForViewer {
			out = append(out, seq)
		}
	}
	return out
}

// searchRef is the reference's search: on, its query, its hits.
type searchRef struct {
	on    bool
	query string
	hits  []int64
}

// all is the hits as the model's would be with the whole window scanned.
func (s searchRef) all(w bucket.Window) Hits {
	return Hits{Seqs: s.hits, From: max(1, w.MinSeq), To: w.MaxSeq, First: max(1, w.MinSeq), Last: w.MaxSeq, Done: true}
}

// pressSearch applies a search key to the reference; false when k is none.
func (r *compareRef) pressSearch(k Key) bool {
	jump := func(seq int64) { r.reference.press(Key{Kind: Jump, Seq: seq}) }
	w := r.c.windows[r.viewer]
	switch k.Kind {
	case SearchFor:
		r.search = searchRef{}
		if len(r.rows()) == 0 {
			r.note = &Note{Kind: NoteNoMatch, Text: k.Query}
			return true
		}
		r.search = searchRef{on: true, query: k.Query, hits: r.c.hits(r.viewer, k.Query)}
		hit, _, found := r.search.all(w).Nearest(r.cursor)
		if !found {
			r.note = &Note{Kind: NoteNoMatch, Text: k.Query}
			return true
		}
		jump(hit)
	case OlderHit, NewerHit:
		if !r.search.on {
			r.note = &Note{Kind: NoteNoSearch}
			return true
		}
		h := r.search.all(w)
		step, end := h.Newer, "oldest"
		if k.Kind == OlderHit {
			step, end = h.Older, "newest"
		}
		hit, wrapped, _ := step(r.cursor)
		if len(h.Seqs) == 0 {
			r.note = &Note{Kind: NoteNoMatch, Text: r.search.query}
			return true
		}
		if wrapped {
			r.note = textNote("search wrapped to the " + end + " hit")
		}
		jump(hit)
	default:
		return false
	}
	return true
}

// searchSteps serves the steps of the searches the model asks for: each
// step scans a random stretch more on either side of what the search has
// scanned, as the page's steps go outwards from where it started.
type searchSteps struct {
	c       conv
	scanned map[int][2]int64 // by search: From..To
}

func (s *searchSteps) serve(t *rapid.T, rd Read) Landed {
	w := s.c.windows[rd.Viewer]
	first, last := max(1, w.MinSeq), w.MaxSeq
	span, ok := s.scanned[rd.Search]
	if !ok {
		span = [2]int64{rd.Seq, rd.Seq - 1}
	}
	span[0] = max(first, span[0]-rapid.Int64Range(0, 150).Draw(t, fmt.Sprintf("older%d", rd.Search)))
	span[1] = min(last, span[1]+rapid.Int64Range(0, 150).Draw(t, fmt.Sprintf("newer%d", rd.Search)))
	if span[0] > first && span[1] < last && span[1]-span[0] < 0 {
		span[1] = min(last, span[0]) // every step scans something
	}
	s.scanned[rd.Search] = span
	var seqs []int64
	for _, h := range s.c.hits(rd.Viewer, rd.Query) {
		if h >= span[0] && h <= span[1] {
			seqs = append(seqs, h)
		}
	}
	return Landed{Read: rd, Hits: Hits{Seqs: seqs, From: span[0], To: span[1], Done: span[0] <= first && span[1] >= last}}
}

// genSearchKey is /q, n or N.
func genSearchKey(t *rapid.T, i int) Key {
	label := func(s string) string { return fmt.Sprintf("%s%d", s, i) }
	switch rapid.IntRange(0, 2).Draw(t, label("skey")) {
	case 0:
		return Key{Kind: SearchFor, Query: rapid.SampledFrom(slices.Sorted(func(yield func(string) bool) {
			for q := range queries {
				if !yield(q) {
					return
				}
			}
		})).Draw(t, label("query"))}
	case 1:
		return Key{Kind: OlderHit}
	}
	return Key{Kind: NewerHit}
}

// firstSentAt is the first seq from..to holding a message sent at or after
// at, 0 when none: a date jump's read, from the whole conversation.
func (c conv) firstSentAt(at, from, to int64) int64 {
	for seq := from; seq <= to; seq++ {
		b := c.buckets[bucket.BucketIndex(seq)]
		if b == nil {
			continue
		}
		if s := b.Slots[bucket.SlotIndex(seq)]; !s.IsHole() && s.Slot.Msg.SendTime >= at {
			return seq
		}
	}
	return 0
}

// pressJump applies a typed jump to the reference; false when k is none.
func (r *compareRef) pressJump(k Key) bool {
	if k.Kind != SeqJump && k.Kind != DateJump {
		return false
	}
	w := r.c.windows[r.viewer]
	lo, hi := max(1, w.MinSeq), w.MaxSeq
	switch {
	case len(r.rows()) == 0:
		r.note = &Note{Kind: NoteNothing}
	case k.Kind == SeqJump && (k.Seq < lo || k.Seq > hi):
		r.note = &Note{Kind: NoteOutside, Seq: k.Seq}
	case k.Kind == SeqJump:
		r.reference.press(Key{Kind: Jump, Seq: k.Seq})
	default:
		seq := r.c.firstSentAt(k.At, lo, hi)
		if seq == 0 {
			r.note = &Note{Kind: NoteJumpFailed, Err: errNoDate}
			return true
		}
		r.note = textNote(fmt.Sprintf("jumped to seq %d", seq))
		r.reference.press(Key{Kind: Jump, Seq: seq})
	}
	return true
}

// genJumpKey is a seq or a date typed at ':'.
func genJumpKey(t *rapid.T, c conv, i int) Key {
	if rapid.Bool().Draw(t, fmt.Sprintf("bySeq%d", i)) {
		var top int64
		for idx := range c.buckets {
			top = max(top, bucket.LastSeq(idx))
		}
		return Key{Kind: SeqJump, Seq: rapid.Int64Range(-5, top+5).Draw(t, fmt.Sprintf("typedSeq%d", i))}
	}
	return Key{Kind: DateJump, At: rapid.Int64Range(0, 2).Draw(t, fmt.Sprintf("at%d", i))}
}
