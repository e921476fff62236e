package ui

import (
	"strings"
	"testing"
)

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
	if d.m.tl == nil || d.m.tl.ID() != chatAB {
		t.Errorf("enter did not open %s", chatAB)
	}
}

// A second / offers the last filter selected, as the README says: typing
// replaces it (it appended: "bobteam", no match), and enter keeps it.
func TestListFilterOffersTheLastOneSelected(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 100, 30)
	d.keys("/")
	d.typeText("bob")
	d.keys("enter", "/")
	d.typeText("team")
	view := d.m.View()
	if !strings.Contains(view, "Team") || strings.Contains(view, "no match") {
		t.Fatalf("/ then team after a filter bob should show the team only:\n%s", view)
	}
	d.keys("enter", "/", "enter")
	if view := d.m.View(); !strings.Contains(view, "Team") || strings.Contains(view, "Bob") {
		t.Fatalf("/ then enter should keep the filter team:\n%s", view)
	}
}
