package store_test

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
)

// A seq at the very top of int64 once made ParseSeqs count past it, wrap
// negative and append forever (5 GB before it was killed).
func TestParseSeqsRefusesSeqsNoBucketCanHold(t *testing.T) {
	for _, in := range []string{
		"9223372036854775807",
		"9223372036854775800-9223372036854775807",
		"5,9223372036854775807",
		"9223372036854775801", // bucket :92233720368547758, whose last seq overflows
	} {
		got, err := store.ParseSeqs(in)
		if err == nil || !strings.Contains(err.Error(), "seqs end at") {
			t.Errorf("ParseSeqs(%q) = %d seqs, %v; want an error naming the last seq", in, len(got), err)
		}
	}
	// The last addressable seq is still a seq.
	if got, err := store.ParseSeqs("9223372036854775799-9223372036854775800"); err != nil || len(got) != 2 || got[1] != 9223372036854775800 {
		t.Errorf("the top of the addressable range: %v, %v", got, err)
	}
	if _, err := store.ParseSeqs("1-100001"); err == nil {
		t.Error("a list of more than 100,000 seqs was accepted")
	}
}

// An empty entry is a seq lost (a typo, a script's empty variable), not
// nothing: "1,,2", "5," and ",5" are refused, not read as "1,2" and "5".
func TestParseSeqsRefusesEmptyEntries(t *testing.T) {
	for _, in := range []string{"1,,2", "5,", ",5", ",", "", " "} {
		if got, err := store.ParseSeqs(in); err == nil {
			t.Errorf("ParseSeqs(%q) = %v, want an error", in, got)
		}
	}
	if got, err := store.ParseSeqs("5, 7"); err != nil || len(got) != 2 {
		t.Errorf("ParseSeqs(\"5, 7\") = %v, %v", got, err)
	}
}
