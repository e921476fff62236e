package projection

import (
	"strconv"
	"strings"
)

// HoleRun is the one row that stands for the seqs first..last when none of
// them holds a message (deleted, never written, or in a bucket that does
// not exist): "· seqs 151–10085: no message (9,935)".
func HoleRun(first, last int64) string {
	return "· seqs " + strconv.FormatInt(first, 10) + "–" + strconv.FormatInt(last, 10) +
		": no message (" + thousands(last-first+1) + ")"
}

// thousands writes n with a comma every three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}
