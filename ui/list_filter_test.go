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
