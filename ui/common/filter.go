package common

import (
	"slices"

	"github.com/sahilm/fuzzy"
)

// FuzzyFilter is the one filter of the UI (the conversation list, the
// viewer picker): which of n items match query, best match first, each item
// known by some fields (a name and an ID). The characters of query must
// appear in order in one field, not next to each other, so "alcbob" finds
// si_alice_bob and a half-remembered nickname finds its user; matches at
// the start of a field or after a separator rank first (sahilm/fuzzy's
// scoring); equal scores keep the items' order. An empty query keeps all.
func FuzzyFilter(query string, n int, fields func(i int) []string) []int {
	out := make([]int, 0, n)
	if query == "" {
		for i := range n {
			out = append(out, i)
		}
		return out
	}
	best := map[int]int{}
	var perField [][]string
	for i := range n {
		for f, s := range fields(i) {
			for len(perField) <= f {
				perField = append(perField, make([]string, n))
			}
			perField[f][i] = s
		}
	}
	for _, data := range perField {
		for _, m := range fuzzy.FindNoSort(query, data) {
			if s, ok := best[m.Index]; !ok || m.Score > s {
				best[m.Index] = m.Score
			}
		}
	}
	for i := range n {
		if _, ok := best[i]; ok {
			out = append(out, i)
		}
	}
	slices.SortStableFunc(out, func(a, b int) int { return best[b] - best[a] })
	return out
}
