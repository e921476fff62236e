package keymap

import (
	"strings"

	"github.com/chatlens/chatlens/store/typo"
)

// nearestAction is the action name closest to a misspelt one; "" when
// none is close.
func nearestAction(word string) string { return Nearest(strings.ToLower(word), Actions()) }

// Nearest is the name closest to word by edit distance (typo.Distance: a
// swap of two neighbours is one edit), within a third of its length (1 to 3
// edits), or one it is the start of; "" when none is that close. The command
// line's "did you mean" (commands, flags, collections) uses it too.
func Nearest(word string, names []string) string {
	limit := min(3, max(1, len(word)/3))
	best, bestDist := "", limit+1
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
			d = typo.Distance(word, n, limit)
		}
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

func abs(n int) int { return max(n, -n) }
