package ui

import (
	"testing"

	"github.com/chatlens/chatlens/store"
)

// startAtLife opens the group as alice with team note 6's life stored
// (seedLife: revoked by carol at 09:40, deleted for alice by a 2102 at
// 09:45; notes sent a minute apart from 09:01) and note 8 deleted for her
// at no known time, and shows it at 09:42.
func startAtLife(t *testing.T) *screen {
	t.Helper()
	s := startScreenWith(t, func(st *store.Store) {
		seedLife(t, st)
		// Note 8 deleted for alice with no 2102 (no IsSyncSelf): no date.
		if _, err := st.DeleteForMe(t.Context(), chatT, []int64{8}, "alice"); err != nil {
			t.Fatal(err)
		}
	})
	s.keys("enter")
	s.waitFor("team note 30")
	s.keys(":")
	s.typeText("at 2024-05-01 09:42")
	s.keys("enter")
	s.waitFor("as Alice at 2024-05-01 09:42:00", "2024-05-01 09:42:00: what alice's pull gave then")
	return s
}

// TestGoldenTimelineAtMoment: at 09:42 the title and the status bar name
// the moment; note 6 is revoked (09:40) but not yet deleted for alice
// (09:45); note 8, deleted at no known time, is shown deleted and marked ?.
func TestGoldenTimelineAtMoment(t *testing.T) {
	s := startAtLife(t)
	s.check()
}

// TestGoldenCompareAcrossMoments: compared with herself at 09:20, alice's
// 09:42 differs at note 6 (revoked since) and in the notes sent after
// 09:20, outside her window then.
func TestGoldenCompareAcrossMoments(t *testing.T) {
	s := startAtLife(t)
	s.keys("c")
	s.waitFor("Compare alice with")
	s.typeText("bob")
	s.keys("enter")
	s.waitFor("vs Bob at 2024-05-01 09:42:00") // at the moment shown
	s.keys(":")
	s.typeText("at 2024-05-01 09:20")
	s.keys("enter")
	s.waitFor("vs Alice at 2024-05-01 09:20:00", "B is alice's pull at 2024-05-01 09:20:00")
	s.keys("D")
	s.waitFor("difference 2 of 2") // the cursor on note 30, sent after 09:20
	s.check()
}

// TestMomentInspectorSaysWhyUnknown: i on a row marked ? at a moment says
// which moment, and what of the row no evidence dates.
func TestMomentInspectorSaysWhyUnknown(t *testing.T) {
	s := startAtLife(t)
	s.keys(":")
	s.typeText("8")
	s.keys("enter")
	s.waitFor("seq 8/30")
	s.keys("i")
	s.waitFor("moment      at 2024-05-01 09:42:00: the row as alice's pull gave it then",
		"unknown     deleted for alice, time unknown: no 2102")
	s.keys("esc", "@")
	s.waitFor("now again")
}

// TestSearchAtAMomentMatchesTheRowsThen: at 09:20 note 6 is not yet
// revoked nor deleted for alice, so a search finds its text; now it
// does not.
func TestSearchAtAMomentMatchesTheRowsThen(t *testing.T) {
	s := startAtLife(t)
	s.keys(":")
	s.typeText("at 2024-05-01 09:20")
	s.keys("enter")
	s.waitFor("2024-05-01 09:20:00: what alice's pull gave then")
	s.keys("/")
	s.typeText("team note 6")
	s.keys("enter")
	s.waitFor(`search "team note 6": hit 1 of 1`)
	s.keys("@")
	s.waitFor("now again")
	s.keys("/")
	s.typeText("team note 6")
	s.keys("enter")
	s.waitFor(`no match for "team note 6"`)
}
