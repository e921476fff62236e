package model

import (
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// The search's part of the model: the hits found so far of the search
// under way, so n, N and the landing of / wait, like every key, for the
// step of the search that decides them, and count from the cursor the
// keys before them left.

// searching is the search under way: started by its key, as the viewer
// of that moment sees the rows, outwards from the cursor of that moment.
type searching struct {
	n        int // the search's number; 0: none
	last     int // the last number given
	query    string
	viewer   string
	origin   int64 // the cursor it started from
	hits     Hits
	inflight bool  // a step is being read
	err      error // why a step failed: the search stopped
}

// Search is what the page draws of the search: its query and hits.
type Search struct{ m *Model }

// Search is the search under way, for drawing.
func (m *Model) Search() Search { return Search{m} }

// Query is the query searched, "" when no search is under way.
func (s Search) Query() string { return s.m.srch.query }

// Hits are the hits found so far; ok is false when no search is under way
// or it failed.
func (s Search) Hits() (h Hits, ok bool) {
	sr := &s.m.srch
	return sr.hits, sr.n != 0 && sr.err == nil
}

// start begins a search for q as viewer from origin, in window w.
func (sr *searching) start(q, viewer string, origin int64, w bucket.Window) {
	sr.last++
	*sr = searching{n: sr.last, last: sr.last, query: q, viewer: viewer, origin: origin,
		hits: Hits{From: origin, To: origin - 1, First: max(1, w.MinSeq), Last: w.MaxSeq}}
}

// drop forgets the search: a step on its way is dropped as it lands.
func (sr *searching) drop() { *sr = searching{last: sr.last} }

// step is the search's next read, when it goes on and none is on its way.
func (sr *searching) step() []Read {
	if sr.n == 0 || sr.hits.Done || sr.err != nil || sr.inflight {
		return nil
	}
	sr.inflight = true
	return []Read{{Kind: ReadSearch, Viewer: sr.viewer, Query: sr.query, Seq: sr.origin, Search: sr.n}}
}

// took takes a step: its hits, and how far the scan has gone.
func (sr *searching) took(l Landed) {
	if l.Read.Search != sr.n || sr.n == 0 {
		return // a search dropped or replaced
	}
	sr.inflight = false
	if l.Err != nil {
		sr.err = l.Err
		return
	}
	h := &sr.hits
	h.Seqs = slices.Compact(slices.Sorted(slices.Values(slices.Concat(h.Seqs, l.Hits.Seqs))))
	h.From, h.To = min(h.From, l.Hits.From), max(h.To, l.Hits.To)
	h.Done = l.Hits.Done || h.From <= h.First && h.To >= h.Last
}

// apply does a search key: it waits while the hits found so far do not
// decide where it goes.
func (sr *searching) apply(m *Model, s *step) (wait, bool) {
	jump := func(seq int64) (wait, bool) {
		s.Kind, s.Seq = Jump, seq
		return m.apply(s)
	}
	if s.Kind == SearchFor && s.search == 0 {
		if m.rules().none() {
			sr.drop() // a new search replaces the last, even one with nothing to search
			m.note = &Note{Kind: NoteNoMatch, Text: s.Query}
			return wait{}, true
		}
		sr.start(s.Query, m.viewer, m.cursor, m.Window())
		s.search = sr.n
	}
	switch {
	case s.Kind == SearchFor && s.search != sr.n, sr.err != nil:
		return wait{}, true // dropped (the viewer changed), or failed: said already
	case sr.n == 0:
		m.note = &Note{Kind: NoteNoSearch}
		return wait{}, true
	}
	h := sr.hits
	if s.Kind == SearchFor {
		hit, decided, found := h.Nearest(sr.origin)
		switch {
		case !decided:
			return wait{search: true}, false
		case !found:
			m.note = &Note{Kind: NoteNoMatch, Text: sr.query}
			return wait{}, true
		}
		return jump(hit)
	}
	step, end := h.Newer, "oldest"
	if s.Kind == OlderHit {
		step, end = h.Older, "newest"
	}
	hit, wrapped, decided := step(m.cursor)
	switch {
	case !decided:
		return wait{search: true}, false
	case len(h.Seqs) == 0:
		m.note = &Note{Kind: NoteNoMatch, Text: sr.query}
		return wait{}, true
	case wrapped:
		m.note = textNote("search wrapped to the " + end + " hit")
	}
	return jump(hit)
}
