package ui

import (
	"strings"
	"testing"
)

// TestListPreviewShowsAFarQuoteBySeq: the newest message of the chat quotes
// seq 3, revoked, in a bucket the list does not read: its preview shows the
// quote by seq only, never the quoted text as stored.
func TestListPreviewShowsAFarQuoteBySeq(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedFarQuotes(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	if view := d.m.View(); strings.Contains(view, "hello 3") || !strings.Contains(view, "[quoted seq 3]") {
		t.Errorf("the list preview of a quote of a far seq is not shown by seq only:\n%s", view)
	}
}
