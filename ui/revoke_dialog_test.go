package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
)

// TestPickerNamesRolesAsOpenIM: the viewer picker names a member's role
// as OpenIM does and as the revoke rule says it: "ordinary member", not
// "member".
func TestPickerNamesRolesAsOpenIM(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatT)
	d.keys("v")
	view := d.m.View()
	for _, want := range []string{"alice  Alice  (owner)", "bob  Bob  (ordinary member)", "carol  Carol  (admin)"} {
		if !strings.Contains(view, want) {
			t.Errorf("the picker does not show %q:\n%s", want, view)
		}
	}
}

// TestRevokeDialogSaysWhoMayRevoke: before asking, the revoke dialog says
// who may revoke the message and whether the viewer may, by OpenIM's rules
// (open-im-server internal/rpc/msg/revoke.go RevokeMsg): in a single chat
// only the sender; in the team group (alice owner, carol admin, bob member)
// the owner anyone's, an admin an ordinary member's only. A viewer who may
// not is told why and has nothing to confirm: y writes nothing.
func TestRevokeDialogSaysWhoMayRevoke(t *testing.T) {
	cases := []struct {
		as, cid string
		seq     int64
		title   string
		want    string
	}{
		{"alice", chatAB, 10, "Revoke refused", "refused: seq 10: alice may not revoke: in a single chat only the sender (bob) may revoke"},
		{"alice", chatAB, 11, "Revoke for everyone?", "alice may: the sender may revoke their own message"},
		{"alice", chatT, 2, "Revoke for everyone?", "by alice (role owner) who may revoke: the sender carol while in the group, the group owner, an admin if carol is an ordinary member or not a member, or an app admin alice may: the group owner may revoke anyone's message"},
		{"carol", chatT, 3, "Revoke refused", "carol may not revoke: a group admin may revoke only an ordinary member's message (the sender alice is the group's owner)"},
		{"carol", chatT, 1, "Revoke for everyone?", "carol may: a group admin may revoke an ordinary member's"},
		{"bob", chatT, 2, "Revoke refused", "bob may not revoke: an ordinary member may revoke only their own message (sent by carol)"},
		{"bob", chatT, 1, "Revoke for everyone?", "by bob (role ordinary member) who may revoke: the sender bob while in the group, the group owner, an admin if bob is an ordinary member or not a member, or an app admin bob may: the sender may revoke their own message"},
	}
	for _, c := range cases {
		st, _ := newTestStore(t, false)
		seedSmall(t, st)
		opts, _ := testOptions(t, c.as)
		d := newDriver(t, st, opts, 140, 40)
		d.open(c.cid)
		d.jump(c.seq)
		d.keys("r")
		if d.m.overlay != ovConfirm {
			t.Fatalf("%s, seq %d of %s: no dialog; status %q", c.as, c.seq, c.cid, d.m.status)
		}
		text := strings.Join(d.m.confirm.Lines, " ")
		if d.m.confirm.Title != c.title || !strings.Contains(text, c.want) || !strings.Contains(text, "who may revoke:") {
			t.Errorf("%s, seq %d of %s: dialog %q %q; want %q with %q", c.as, c.seq, c.cid, d.m.confirm.Title, text, c.title, c.want)
		}
		if c.title == "Revoke refused" {
			d.keys("y")
			bs, err := st.Buckets(context.Background(), c.cid, []int64{0}, c.seq)
			if err != nil {
				t.Fatal(err)
			}
			if r := bs[0].Slots[c.seq-1].Slot.Revoke; r != nil {
				t.Errorf("%s, seq %d of %s: y after a refusal wrote %+v", c.as, c.seq, c.cid, r)
			}
		}
	}
}

// TestDialogsSayNoNotificationIsSent: on a MongoDB deployment, OpenIM
// sends a notification message after a revoke (2101), delete (2102) or
// mark read (2200) that synced devices act on; chatlens writes storage
// only, and each confirm dialog says so in one sentence.
func TestDialogsSayNoNotificationIsSent(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	opts.Deployment = true
	d := newDriver(t, st, opts, 140, 40)
	d.open(chatAB)
	for _, c := range []struct {
		key  string
		seq  int64
		want string
	}{{"r", 11, "no revoke notification (2101)"}, {"d", 12, "no delete notification (2102)"}, {"m", 112, "no read receipt (2200)"}} {
		d.jump(c.seq)
		d.keys(c.key)
		if text := strings.Join(d.m.confirm.Lines, " "); d.m.overlay != ovConfirm || !strings.Contains(text, c.want) {
			t.Errorf("%s dialog %q: want %q", c.key, text, c.want)
		}
		d.keys("esc")
	}
	if store.NotificationNote(store.ActionRevoke, "alice") == "" {
		t.Error("no note for revoke")
	}
}

// TestAdminRevokesAsOpenIMsAppAdmin: with Options.Admin (chatlens --admin)
// the operator acts as an app admin, whom revoke.go RevokeMsg lets revoke
// any message with role 0: carol, a group admin, may then revoke the
// owner's message, the dialog says why, and the record carries role 0.
func TestAdminRevokesAsOpenIMsAppAdmin(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "carol")
	opts.Admin = true
	d := newDriver(t, st, opts, 140, 40)
	d.open(chatT)
	d.jump(3)
	d.keys("r")
	text := strings.Join(d.m.confirm.Lines, " ")
	if d.m.confirm.Title != "Revoke for everyone?" || !strings.Contains(text, "an app admin may revoke any message (role 0)") {
		t.Fatalf("dialog %q %q: want carol allowed as an app admin", d.m.confirm.Title, text)
	}
	d.keys("y")
	bs, err := st.Buckets(context.Background(), chatT, []int64{0}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if r := bs[0].Slots[2].Slot.Revoke; r == nil || r.UserID != "carol" || r.Role != 0 {
		t.Errorf("revoke record %+v: want carol with role 0", r)
	}
}

// TestAdminRevokeDialogSaysRoleZero: an app admin's revoke in a single
// chat records role 0 (revoke.go skips the role lookup under IsAdmin),
// not the user's app_manger_level the dialog named for everyone else.
func TestAdminRevokeDialogSaysRoleZero(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	opts.Admin = true
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.jump(10) // bob's message: alice may revoke it as an app admin only
	d.keys("r")
	text := strings.Join(d.m.confirm.Lines, " ")
	if !strings.Contains(text, "an app admin may revoke") || !strings.Contains(text, "(role 0, none)") || strings.Contains(text, "app_manger_level") {
		t.Errorf("the admin's revoke dialog does not say role 0:\n%s", text)
	}
}
