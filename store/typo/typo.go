// Package typo measures how far a mistyped name is from a known one: the
// one edit distance behind chatlens's "did you mean" (commands, flags,
// config keys, key-map actions, colours, collections, conversation and
// user IDs). It imports nothing of chatlens, so the key map and the store
// both use it.
package typo

// Distance is the optimal string alignment distance of a and b, counted in
// runes (a swap of two neighbours is one edit), or more than limit once it
// is sure to exceed it.
func Distance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if max(len(ra)-len(rb), len(rb)-len(ra)) > limit {
		return limit + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
