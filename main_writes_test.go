package main

import (
	"testing"

	"github.com/chatlens/chatlens/store/demo"
)

// A seq list ending at the top of int64 once looped forever: it is bad
// usage, refused before the store is opened.
func TestSeqPastTheLastBucketIsAUsageError(t *testing.T) {
	s := seeded(t)
	for _, seq := range []string{"9223372036854775807", "9223372036854775000-9223372036854775807"} {
		r := s.chatlens(t, "revoke", "--conversation", demo.ShowcaseSingleID, "--seq", seq, "--by", "alice")
		if r.code != 2 {
			t.Errorf("--seq %s: exit %d, want 2 (%s)", seq, r.code, r.stderr)
		}
		oneErrorLine(t, r.stderr)
	}
}
