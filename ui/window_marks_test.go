package ui

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// daveLeftAt20 stores dave's conversation document of the team group with
// max_seq 20: OpenIM caps a member who left there.
func daveLeftAt20(t *testing.T) func(*store.Store) {
	return func(st *store.Store) {
		insertRaw(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "dave", ConversationID: chatT,
			ConversationType: 3, GroupID: "team", MaxSeq: 20})
	}
}

// Viewing sg_phoenix as sofia, who has no conversation document for it,
// showed the whole history and "window sofia sees seq 1-300", while dump
// shows her nothing (OpenIM's pull skips the conversation: sync_msg.go
// PullMessageBySeqs). The timeline now shows nothing under a banner that
// says who is pulled nothing and why; compare says it of B.
func TestViewerWithNoConversationIsPulledNothing(t *testing.T) {
	d := compareDriver(t, 120, 40, func(st *store.Store) {
		// A member record and no conversation document: compare offers zed.
		insertRaw(t, st, bucket.CollGroupMember, bucket.GroupMember{GroupID: "team", UserID: "zed", RoleLevel: bucket.RoleMember})
	})
	d.open(chatT)
	d.keys("u")
	d.typeText("zed")
	d.keys("enter")
	view := d.m.View()
	flat := strings.Join(strings.Fields(strings.ReplaceAll(view, "│", " ")), " ")
	if !strings.Contains(flat, "zed is pulled nothing of sg_team: zed owns no conversation document for it") {
		t.Errorf("no banner says zed is pulled nothing and why:\n%s", view)
	}
	if seqs := seqsOnScreen(view); len(seqs) != 0 {
		t.Errorf("seqs %v shown to a viewer OpenIM pulls nothing to:\n%s", seqs, view)
	}
	// No row is shown, so no row key acts on one: each says why instead of
	// inspecting, copying, asking to write or transcribing a row zed never sees.
	for _, k := range []string{"i", "y", "d", "m", "r", "T"} {
		d.keys(k)
		if d.m.overlay != ovNone || d.m.input.Open() || !strings.Contains(d.m.status, "zed is shown nothing of sg_team") {
			t.Errorf("%s on zed's empty timeline: overlay %v, input %v, status %q; want only the status saying why", k, d.m.overlay, d.m.input.Open(), d.m.status)
		}
	}
	d.keys("u")
	d.typeText("alice")
	d.keys("enter", "c")
	d.typeText("zed")
	d.keys("enter")
	view = d.m.View()
	if !strings.Contains(view, "B: zed is pulled nothing of sg_team") || !strings.Contains(d.m.tl.Compare().Progress(), " 30 seqs differ") {
		t.Errorf("compare with zed does not say B is pulled nothing, every seq a difference (%q):\n%s", d.m.tl.Compare().Progress(), view)
	}
}

// A member who left stopped at their last seq with no sign why (lucas at
// 120 of 300). The window's end now has a marker naming the field.
func TestLeftMemberWindowEndsWithAMarker(t *testing.T) {
	d := compareDriver(t, 120, 40, daveLeftAt20(t))
	d.open(chatT)
	d.keys("u")
	d.typeText("dave")
	d.keys("enter")
	view := d.m.View()
	want := "── end of window: conversation.max_seq = 20 (left or removed) · chat to 30 ──"
	if !strings.Contains(view, want) {
		t.Errorf("no marker ends dave's window:\n%s", view)
	}
	if seqs := seqsOnScreen(view); len(seqs) == 0 || seqs[len(seqs)-1] != 20 {
		t.Errorf("dave's rows end at %v, want 20", seqs)
	}
}

// seq_user.min_seq is set by clearing one's history and by joining late:
// the inspector said "cleared" where compare hedged. Both hedge now.
func TestMinSeqIsHedgedAlike(t *testing.T) {
	d := compareDriver(t, 120, 40, clearedBefore41(t))
	d.open(chatAB)
	d.jump(41)
	d.keys("i")
	if view := d.m.View(); !strings.Contains(view, "the user cleared their own history, or joined later") {
		t.Errorf("the inspector does not hedge seq_user.min_seq:\n%s", view)
	}
}

// TestGoldenPulledNothing: the timeline of a viewer OpenIM pulls nothing to
// (a user of the store, not a member of the group).
func TestGoldenPulledNothing(t *testing.T) {
	s := startScreenWith(t, func(st *store.Store) { insertRaw(t, st, bucket.CollUser, bucket.User{UserID: "zed"}) })
	s.keys("enter") // the team group
	s.waitFor("team note 30")
	s.keys("u")
	s.typeText("zed")
	s.keys("enter")
	s.waitFor("is pulled nothing", "no conversations") // the timeline's window, then zed's list
	s.check()
}

// TestGoldenWindowEnd: the marker under a left member's last seq.
func TestGoldenWindowEnd(t *testing.T) {
	s := startScreenWith(t, daveLeftAt20(t))
	s.keys("enter")
	s.waitFor("team note 30")
	s.keys("u")
	s.typeText("dave")
	s.keys("enter")
	s.waitFor("end of window", "Team (20)") // the timeline's window, then dave's list
	s.check()
}

// Compare could not pick a member who left (no longer among the members
// the picker lists): typing "dave" emptied the list and enter closed it
// silently. An ID no member matches is taken as a user ID, as u takes it.
func TestCompareTakesAnyUserID(t *testing.T) {
	d := compareDriver(t, 120, 40, daveLeftAt20(t))
	d.open(chatT)
	d.keys("c")
	d.typeText("dave")
	if view := d.m.View(); !strings.Contains(view, "no member matches") {
		t.Errorf("the picker does not say enter takes dave as a user ID:\n%s", view)
	}
	d.keys("enter")
	if d.m.tl.Compare().With() != "dave" {
		t.Errorf("comparing with %q after typing dave, want dave", d.m.tl.Compare().With())
	}
}
