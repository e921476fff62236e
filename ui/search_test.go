package ui

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"
)

// searchDriver opens the single chat with the cursor at seq.
func searchDriver(t *testing.T, at int64) *driver {
	t.Helper()
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.jump(at)
	return d
}

func (d *driver) search(q string) {
	d.keys("/")
	d.typeText(q)
	d.keys("enter")
}

// TestSearchOffersTheLastQuerySelected: / shows the last query selected, so
// a key typed replaces it, and enter alone searches it again.
func TestSearchOffersTheLastQuerySelected(t *testing.T) {
	d := searchDriver(t, 60)
	d.search("hello 11")
	d.keys("/")
	if v := d.m.input.Value(); v != "hello 11" {
		t.Fatalf("second / offers %q, want the last query", v)
	}
	d.typeText("hello 2") // replaces it whole: it is offered selected
	if v := d.m.input.Value(); v != "hello 2" {
		t.Errorf("typing over the offered query gave %q, want %q", v, "hello 2")
	}
	d.keys("esc", "/", "enter")
	if d.m.tl.Search().Query() != "hello 11" {
		t.Errorf("enter on the offered query searched %q", d.m.tl.Search().Query())
	}
}

// TestGoldenSearchHighlight is compared with colours on: the match inside
// each hit row is marked (bold, underlined) and a lost mark fails here.
func TestGoldenSearchHighlight(t *testing.T) {
	withProfile(t, termenv.ANSI256)
	s := startScreen(t)
	s.open()
	s.keys("/")
	s.typeText("hello 11")
	s.keys("enter")
	s.waitFor("hit 1 of 10")
	s.check()
}

// TestSearchFooterGoesWithTheSearch: a search with no hit says so once and
// leaves no "0 hits · n/N step" behind; a viewer switch drops a search's
// hits (they are what the last viewer sees) and its footer.
func TestSearchFooterGoesWithTheSearch(t *testing.T) {
	d := searchDriver(t, 60)
	d.search("zebra")
	d.jump(100)
	if strings.Contains(d.m.View(), "0 hits") {
		t.Errorf("the footer keeps the search with no hit after a jump:\n%s", d.m.View())
	}
	d.search("hello 11")
	if !strings.Contains(d.m.View(), "hits") {
		t.Fatalf("no search footer:\n%s", d.m.View())
	}
	d.keys("u")
	d.typeText("bob")
	d.keys("enter")
	if strings.Contains(d.m.View(), "hits ·") || d.m.tl.Search().Progress() != "" {
		t.Errorf("the footer keeps alice's search as bob:\n%s", d.m.View())
	}
}
