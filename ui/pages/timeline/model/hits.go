package model

import "slices"

// Hits is what a search has found so far: the seqs that match, ascending,
// and the seqs scanned, From..To, a run around where it started that
// grows outwards until it covers the window First..Last (Done).
type Hits struct {
	Seqs        []int64
	From, To    int64
	First, Last int64
	Done        bool
}

// Nearest is the hit nearest origin, before or after it, a tie going to
// the older one. decided is false while a nearer hit could still be found
// in what is not scanned; found is false when the scan is done with none.
func (h Hits) Nearest(origin int64) (hit int64, decided, found bool) {
	best, ok := int64(0), false
	for _, s := range h.Seqs {
		if !ok || dist(s, origin) < dist(best, origin) || dist(s, origin) == dist(best, origin) && s < best {
			best, ok = s, true
		}
	}
	if !ok {
		return 0, h.Done, false
	}
	d := dist(best, origin)
	covered := h.Done || h.From <= max(h.First, origin-d) && h.To >= min(h.Last, origin+d)
	return best, covered, true
}

func dist(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}

// Older is the nearest hit before seq; wrapped when there is none and it
// is the newest instead. decided is false while the scan may still find a
// nearer one: it has not covered every seq from that hit up to seq (the
// cursor may be outside what is scanned: keys moved it after the search).
func (h Hits) Older(seq int64) (hit int64, wrapped, decided bool) {
	i, _ := slices.BinarySearch(h.Seqs, seq)
	if i > 0 && (h.Done || h.Seqs[i-1] >= h.From && min(seq-1, h.Last) <= h.To) {
		return h.Seqs[i-1], false, true
	}
	if !h.Done {
		return 0, false, false
	}
	if len(h.Seqs) == 0 {
		return 0, false, true
	}
	return h.Seqs[len(h.Seqs)-1], true, true
}

// Newer is the nearest hit after seq; wrapped when it is the oldest.
func (h Hits) Newer(seq int64) (hit int64, wrapped, decided bool) {
	i, found := slices.BinarySearch(h.Seqs, seq)
	if found {
		i++
	}
	if i < len(h.Seqs) && (h.Done || h.Seqs[i] <= h.To && max(seq+1, h.First) >= h.From) {
		return h.Seqs[i], false, true
	}
	if !h.Done {
		return 0, false, false
	}
	if len(h.Seqs) == 0 {
		return 0, false, true
	}
	return h.Seqs[0], true, true
}

// Number is seq's place among the hits counted from the newest (1 is the
// newest), so stepping older counts up; ok is false when seq is no hit or
// the hits newer than it are not all found yet.
func (h Hits) Number(seq int64) (int, bool) {
	i, found := slices.BinarySearch(h.Seqs, seq)
	if !found || !h.Done && h.To < h.Last {
		return 0, false
	}
	return len(h.Seqs) - i, true
}
