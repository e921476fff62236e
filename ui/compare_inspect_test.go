package ui

import (
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/chatlens/chatlens/ui/uitest"
)

// TestGoldenCompareInspectorTold: in compare, the inspector of team note 5
// says under each viewer who has read it and which notice told of its
// revoke, pulled by alice and not by carol.
func TestGoldenCompareInspectorTold(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	uitest.CarolMissesNTeam(t, st)
	opts, _ := testOptions(t, "alice")
	tm := teatest.NewTestModel(t, testModel(st, opts), teatest.WithInitialTermSize(140, 44))
	s := &screen{t: t, tm: tm, tb: tb}
	s.waitFor("hello 120 from bob", "Notifications")
	s.keys("enter")
	s.waitFor("team note 30")
	s.keys("c")
	s.waitFor("Compare alice with")
	s.typeText("carol")
	s.keys("enter")
	s.waitFor("vs Carol")
	s.keys(":")
	s.typeText("5")
	s.keys("enter")
	s.waitFor("seq 5/30")
	s.keys("i")
	s.waitFor("pulled by alice: yes", "pulled by carol: no")
	s.check()
}
