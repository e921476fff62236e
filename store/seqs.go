package store

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParseSeqs reads a seq list such as "5", "5,7,9" or "10-20,25" (sorted,
// duplicates removed). Ranges are capped to keep a typo from writing a
// million slots.
func ParseSeqs(s string) ([]int64, error) {
	const maxSeqs = 100000
	var out []int64
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.ParseInt(lo, 10, 64)
		if err != nil || a < 1 {
			return nil, fmt.Errorf("bad seq %q: seqs are whole numbers from 1", part)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseInt(hi, 10, 64); err != nil || b < a {
				return nil, fmt.Errorf("bad seq range %q: want A-B with A <= B", part)
			}
		}
		if b-a >= maxSeqs || len(out)+int(b-a) >= maxSeqs {
			return nil, fmt.Errorf("seq list %q names more than %d seqs", s, maxSeqs)
		}
		for seq := a; seq <= b; seq++ {
			out = append(out, seq)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no seqs in %q", s)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// FormatSeqs writes seqs compactly, runs as ranges: "1-3,7".
func FormatSeqs(seqs []int64) string {
	var b strings.Builder
	for i := 0; i < len(seqs); {
		j := i
		for j+1 < len(seqs) && seqs[j+1] == seqs[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", seqs[i], seqs[j])
		} else {
			fmt.Fprintf(&b, "%d", seqs[i])
		}
		i = j + 1
	}
	return b.String()
}
