package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// What a user meets in the first minutes: dialogs over the timeline, the
// compare picker, the starting viewer, a mistyped user ID, the footer.

func TestDialogsFloatOverTheTimeline(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.jump(10)
	// (c opens no dialog in a single chat: TestCompareSingleChatAtOnce.)
	for _, k := range []string{"v", "r", "?"} {
		d.keys(k)
		view := d.m.View()
		if rowOf(view, 12) == "" || !strings.Contains(view, "Conversations of alice") {
			t.Errorf("%s: the dialog blanked the screen:\n%s", k, view)
		}
		for i, line := range strings.Split(view, "\n") {
			if w := len([]rune(line)); i < 38 && strings.Contains(line, "│") && w != 120 {
				t.Errorf("%s: line %d is %d cells, not 120: %q", k, i, w, line)
			}
		}
		d.keys("esc")
		if d.m.overlay != ovNone {
			t.Fatalf("%s: esc did not close the dialog", k)
		}
	}
}

func TestComparePickerOffersTheOthers(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatT)
	d.keys("c")
	// A choice is drawn "ID  nickname  (role)".
	if view := d.m.View(); strings.Contains(view, "alice  Alice") || !strings.Contains(view, "bob  Bob") {
		t.Errorf("the compare picker offers the viewer herself, or not the others:\n%s", view)
	}

	// It starts on the sender of the selected message.
	d.keys("esc") // picker closed
	d.keys("k")   // seq 29, from carol
	sender, _ := d.m.tl.Message(d.m.tl.Cursor(), "alice")
	d.keys("c", "enter")
	if d.m.tl.Compare().With() != sender.SendID || sender.SendID == "alice" {
		t.Errorf("group compare started on %q, the selected message is from %q", d.m.tl.Compare().With(), sender.SendID)
	}
}

func TestSwitchingToTheComparedViewerSwapsSides(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.keys("c", "V") // compare with bob, then view as the next member: bob
	if d.m.tl.Viewer() != "bob" || d.m.tl.Compare().With() != "alice" {
		t.Errorf("viewer %q compared with %q, want bob with alice", d.m.tl.Viewer(), d.m.tl.Compare().With())
	}
}

func TestCompareMarksSeqsOutsideTheOtherWindow(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	insertRaw(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "carol", ConversationID: chatT, MinSeq: 20})
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 140, 50)
	d.open(chatT)
	d.keys("c")
	d.typeText("carol")
	d.keys("enter")
	view := d.m.View()
	if row := rowOf(view, 10); !strings.Contains(row, "not in Carol's window") || !strings.Contains(row, "≠") {
		t.Errorf("seq 10, before carol's min seq, drawn as %q", row)
	}
	if row := rowOf(view, 25); strings.Contains(row, "window") || strings.Contains(row, "≠") {
		t.Errorf("seq 25, which both see alike, drawn as %q", row)
	}
}

func TestStartingViewerIsTheGroupOwner(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	// "sg_aaa" sorts first; its owner is not its first member.
	must := func(_ store.WriteResult, err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(st.InsertMessages(t.Context(), "sg_aaa", 1,
		[]*bucket.MsgData{textMsg("zed", "", "aaa", bucket.SessionGroup, 1, "hi")}))
	insertRaw(t, st, bucket.CollGroupMember,
		bucket.GroupMember{GroupID: "aaa", UserID: "zed", RoleLevel: bucket.RoleMember},
		bucket.GroupMember{GroupID: "aaa", UserID: "yan", RoleLevel: bucket.RoleOwner},
		bucket.GroupMember{GroupID: "aaa", UserID: "xu", RoleLevel: bucket.RoleAdmin})
	opts, _ := testOptions(t, "")
	d := newDriver(t, st, opts, 120, 40)
	if d.m.list.Owner() != "yan" {
		t.Errorf("started as %q, want the group's owner yan", d.m.list.Owner())
	}
	if !strings.Contains(d.m.status, "owner of sg_aaa") || !strings.Contains(d.m.status, "u to view as") {
		t.Errorf("the status does not say why yan or how to switch: %q", d.m.status)
	}
}

func TestMistypedUserIDIsFlagged(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.keys("u")
	d.typeText("nobdy")
	d.keys("enter")
	if !d.m.statusErr || !strings.Contains(d.m.status, `no such user "nobdy"`) {
		t.Errorf("status after typing an unknown ID: %q", d.m.status)
	}
	// No stored document names nobdy: no switch to an empty list of
	// someone who does not exist; alice's list stays.
	if v := d.m.View(); !strings.Contains(v, "Conversations of alice") || !strings.Contains(v, "Team") {
		t.Errorf("the list changed on an unknown ID:\n%s", v)
	}
	d.keys("u")
	d.typeText("carol")
	d.keys("enter")
	if d.m.statusErr || strings.Contains(d.m.View(), "no conversation records") {
		t.Errorf("a known user is flagged: %q", d.m.status)
	}
}

func TestFooterOffersOnlyKeysThatWorkThere(t *testing.T) {
	footer := func(d *driver) string {
		lines := strings.Split(d.m.View(), "\n")
		return lines[len(lines)-1]
	}
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 200, 40)
	if f := footer(d); strings.Contains(f, "revoke") || !strings.Contains(f, "enter open") || !strings.Contains(f, "? help") {
		t.Errorf("list footer: %q", f)
	}
	d.open(chatAB)
	if f := footer(d); !strings.Contains(f, "r revoke") || !strings.Contains(f, "? help") {
		t.Errorf("timeline footer: %q", f)
	}
	d.keys("v")
	if f := footer(d); !strings.Contains(f, "enter view as") || strings.Contains(f, "q quit") {
		t.Errorf("picker footer: %q", f)
	}
	d.keys("esc")
	d.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	if f := footer(d); !strings.Contains(f, "? help") || len([]rune(f)) > 60 {
		t.Errorf("narrow footer loses the way to help or overflows: %q", f)
	}
}

// An n_ conversation sorting first names a group ("n_aaa"), not a user: the
// start passes it, as the recording's n_g1 made it start as "g1", no user.
func TestStartingViewerIsNoNotificationID(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	for _, cid := range []string{"n_aaa", "sg_aab"} {
		if _, err := st.InsertMessages(t.Context(), cid, 1,
			[]*bucket.MsgData{textMsg("zed", "", "aab", bucket.SessionGroup, 1, "hi")}); err != nil {
			t.Fatal(err)
		}
	}
	insertRaw(t, st, bucket.CollGroupMember, bucket.GroupMember{GroupID: "aab", UserID: "yan", RoleLevel: bucket.RoleOwner})
	opts, _ := testOptions(t, "")
	d := newDriver(t, st, opts, 120, 40)
	if d.m.list.Owner() != "yan" {
		t.Errorf("started as %q (%q), want sg_aab's owner yan, past n_aaa", d.m.list.Owner(), d.m.status)
	}
}
