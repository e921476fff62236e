package keymap

import "strings"

// nearestAction is the action name closest to a misspelt one; "" when
// none is close.
func nearestAction(word string) string { return Nearest(strings.ToLower(word), Actions()) }

// Nearest is the name closest to word by edit distance, within a third of
// its length (1 to 3 edits), or one it is the start of; "" when none is that
// close. The command line's "did you mean" (commands, flags, collections)
// uses it too.
func Nearest(word string, names []string) string {
	best, bestDist := "", min(3, max(1, len(word)/3))+1
	for _, n := range names {
		var d int
		switch {
		case word == n:
			d = 0
		case word != "" && strings.HasPrefix(n, word):
			d = 1
		case abs(len(word)-len(n)) >= bestDist:
			continue // the lengths alone are too far apart (a hostile 100 kB word costs nothing)
		default:
			d = editDistance(word, n)
		}
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func abs(n int) int { return max(n, -n) }
