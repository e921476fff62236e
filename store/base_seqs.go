package store

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// MaxSeqsPerCommand bounds how many seqs one command may name. Each seq of a
// write is one round trip and one slot changed, and the list is held in
// memory and checked before anything is written: 100,000 is a minute or two
// of writes, more than any operator does by hand, while a typo such as
// "1-10000000" is refused before it writes ten million slots.
const MaxSeqsPerCommand = 100000

// ParseSeqs reads a seq list such as "5", "5,7,9" or "10-20,25" (sorted,
// duplicates removed). Seqs above MaxSeq, lists naming more than
// MaxSeqsPerCommand seqs and an empty entry ("1,,2", "5,", ",5": a seq
// lost in a typo or a script's empty variable) are refused.
func ParseSeqs(s string) ([]int64, error) {
	const maxSeqs = MaxSeqsPerCommand
	var out []int64
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("bad seq list %q: an empty entry between commas", s)
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
		if b > bucket.MaxSeq {
			return nil, fmt.Errorf("bad seq %q: seqs end at %d (the last one a bucket can address)", part, int64(bucket.MaxSeq))
		}
		if b-a >= maxSeqs || len(out)+int(b-a) >= maxSeqs {
			return nil, fmt.Errorf("seq list %q names more than %d seqs", s, maxSeqs)
		}
		for n := range b - a + 1 { // counted, not compared to b: b+1 may wrap
			out = append(out, a+n)
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
