package common

import (
	"slices"
	"testing"
)

// TestFuzzyFilterRanks: the characters typed need only appear in order in
// one field; a match at a field's start or after a separator ranks before
// one further in; equal scores keep the items' order.
func TestFuzzyFilterRanks(t *testing.T) {
	items := [][]string{
		{"Alice", "si_alice_carol"},
		{"Robert", "si_alice_rob"},
		{"Bob", "si_bob_carol"},
		{"Carol", "sg_team"},
	}
	fields := func(i int) []string { return items[i] }
	names := func(idx []int) []string {
		var out []string
		for _, i := range idx {
			out = append(out, items[i][0])
		}
		return out
	}
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"", []string{"Alice", "Robert", "Bob", "Carol"}},
		{"alcrol", []string{"Alice"}},              // letters apart, in order
		{"bob", []string{"Bob"}},                   // r-o-b is not b-o-b
		{"ROB", []string{"Robert"}},                // any case
		{"car", []string{"Carol", "Bob", "Alice"}}, // a field's start first, then fewer characters skipped
		{"xyz", nil},
	} {
		if got := names(FuzzyFilter(c.query, len(items), fields)); !slices.Equal(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.query, got, c.want)
		}
	}
}
