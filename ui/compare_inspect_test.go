package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// carolMissesNTeam adds the notices of seedNotices and starts carol's
// window of n_team after its seq 1 (the notice of alice's revoke of team
// note 5), and bob's read seq of the team before it.
func carolMissesNTeam(t *testing.T) func(*store.Store) {
	return func(st *store.Store) {
		seedNotices(t, st)
		insertRaw(t, st, bucket.CollSeqUser,
			bucket.SeqUser{UserID: "carol", ConversationID: "n_team", MinSeq: 2},
			bucket.SeqUser{UserID: "bob", ConversationID: chatT, ReadSeq: 3})
	}
}

// compareSection is the lines of the compare inspector's right column
// from "<side> as" to the next blank line.
func compareSection(view, side string) string {
	var out []string
	in := false
	for _, l := range strings.Split(view, "\n") {
		_, right, ok := strings.Cut(l, " │ ")
		if !ok {
			continue
		}
		right = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(right, " "), "│"), " ")
		switch {
		case strings.HasPrefix(right, side+" as "):
			in = true
		case in && right == "":
			in = false
		}
		if in {
			out = append(out, right)
		}
	}
	return strings.Join(out, "\n")
}

// TestCompareInspectorSaysWhoReadAndWhoWasTold: i in compare said what
// each viewer sees but not who has read the message nor which notification
// told of its revoke; one had to leave compare and switch viewer. Now each
// viewer's side says both, the pull of the notice as that viewer's.
func TestCompareInspectorSaysWhoReadAndWhoWasTold(t *testing.T) {
	d := compareDriver(t, 180, 60, carolMissesNTeam(t))
	d.open(chatT)
	d.keys("c")
	d.typeText("carol")
	d.keys("enter")
	d.jump(5)
	d.keys("i")
	view := d.m.View()
	for side, wants := range map[string][]string{
		"A": {"readers     read by 1 of 2: Alice", "not read by 1 of 2: Bob", "revoke: told by n_team seq 1, pulled by alice: yes"},
		"B": {"readers     read by 1 of 2: Alice", "not read by 1 of 2: Bob", "revoke: told by n_team seq 1, pulled by carol: no"},
	} {
		got := compareSection(view, side)
		for _, want := range wants {
			if !strings.Contains(got, want) {
				t.Errorf("%s's side of the compare inspector lacks %q:\n%s\n\nscreen:\n%s", side, want, got, view)
			}
		}
	}
}

// TestGoldenCompareInspectorTold: in compare, the inspector of team note 5
// says under each viewer who has read it and which notice told of its
// revoke, pulled by alice and not by carol.
func TestGoldenCompareInspectorTold(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	carolMissesNTeam(t)(st)
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
