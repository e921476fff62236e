package model

import "slices"

// span is a run of bucket indexes lo..hi.
type span struct{ lo, hi int64 }

// spans is a sorted set of bucket indexes kept as merged runs, so a run of
// ten million buckets costs one entry.
type spans []span

// find is the run holding idx.
func (s spans) find(idx int64) (span, bool) {
	i, _ := slices.BinarySearchFunc(s, idx, func(sp span, idx int64) int {
		switch {
		case sp.hi < idx:
			return -1
		case sp.lo > idx:
			return 1
		}
		return 0
	})
	if i < len(s) && s[i].lo <= idx && idx <= s[i].hi {
		return s[i], true
	}
	return span{}, false
}

// add puts lo..hi in the set, merging it with the runs it touches.
func (s spans) add(lo, hi int64) spans {
	if lo > hi {
		return s
	}
	out := make(spans, 0, len(s)+1)
	for _, sp := range s {
		switch {
		case sp.hi+1 < lo || sp.lo > hi+1:
			out = append(out, sp)
		default:
			lo, hi = min(lo, sp.lo), max(hi, sp.hi)
		}
	}
	out = append(out, span{lo, hi})
	slices.SortFunc(out, func(a, b span) int { return cmpInt(a.lo, b.lo) })
	return out
}

// remove takes lo..hi out of the set.
func (s spans) remove(lo, hi int64) spans {
	out := make(spans, 0, len(s)+1)
	for _, sp := range s {
		if sp.hi < lo || sp.lo > hi {
			out = append(out, sp)
			continue
		}
		if sp.lo < lo {
			out = append(out, span{sp.lo, lo - 1})
		}
		if sp.hi > hi {
			out = append(out, span{hi + 1, sp.hi})
		}
	}
	return out
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
