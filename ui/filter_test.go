package ui

import (
	"slices"
	"strings"
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
		if got := names(fuzzyFilter(c.query, len(items), fields)); !slices.Equal(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.query, got, c.want)
		}
	}
}

// TestListFilterIsFuzzy: the conversation list finds a conversation from
// letters of its ID typed with gaps (the substring filter found nothing).
func TestListFilterIsFuzzy(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 100, 30)
	d.keys("/")
	d.typeText("alcbob")
	view := d.m.View()
	if !strings.Contains(view, "Bob") || strings.Contains(view, "Team") || strings.Contains(view, "no match") {
		t.Fatalf("filter alcbob should show the chat with Bob only:\n%s", view)
	}
	d.keys("enter", "enter")
	if d.m.tl == nil || d.m.tl.cid != chatAB {
		t.Errorf("enter did not open %s", chatAB)
	}
}
