package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
)

// startNoticeScreen is startScreen on the small seed and seedNotices,
// once the list and its notification section are drawn.
func startNoticeScreen(t *testing.T) *screen {
	t.Helper()
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	seedNotices(t, st)
	opts, _ := testOptions(t, "alice")
	tm := teatest.NewTestModel(t, testModel(st, opts), teatest.WithInitialTermSize(100, 30))
	s := &screen{t: t, tm: tm, tb: tb}
	s.waitFor("hello 120 from bob", "Notifications", "bob read up to seq 118")
	return s
}

// TestGoldenListNotifications: alice's notification conversations are a
// section of their own below her chats, under a header row.
func TestGoldenListNotifications(t *testing.T) {
	s := startNoticeScreen(t)
	s.check()
}

// TestGoldenNotificationTimeline: a notification row opens into its
// timeline, each notification drawn as dump writes it; / finds it.
func TestGoldenNotificationTimeline(t *testing.T) {
	s := startNoticeScreen(t)
	s.keys("/")
	s.typeText("n_team")
	s.keys("enter", "enter")
	s.waitFor("as alice", "alice revoked a message (seq 5 of sg_team)")
	s.check()
}

// TestGoldenInspectorTold: the inspector of a revoked message names the
// notification that told the group, and whether the viewer's pull has it.
func TestGoldenInspectorTold(t *testing.T) {
	s := startNoticeScreen(t)
	s.keys("enter")
	s.waitFor("team note 30")
	s.keys(":")
	s.typeText("5")
	s.keys("enter")
	s.waitFor("seq 5/30")
	s.keys("i")
	s.waitFor("revoke: told by n_team seq 1, pulled by alice: yes")
	s.check()
}

// TestNotificationRowsAreApart: the cursor passes over the section's
// header from the last chat to the first notification; the filter covers
// notification rows and opening one opens its conversation; the inspector
// of a storage-level revoke says none told of it.
func TestNotificationRowsAreApart(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	seedNotices(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 100, 30)
	if n := len(d.m.list.Notices()); n != 2 {
		t.Fatalf("%d notification rows, want n_alice_bob and n_team:\n%s", n, d.m.View())
	}
	d.keys("j", "j")
	if it := d.m.list.Selected(); it == nil || it.Sum.ConversationID != "n_alice_bob" {
		t.Fatalf("two rows down from Team: %+v, want n_alice_bob past the header", it)
	}
	d.keys("k")
	if it := d.m.list.Selected(); it == nil || it.Sum.ConversationID != chatAB {
		t.Fatalf("one row up: %+v, want the single chat", it)
	}
	d.keys("/")
	d.typeText("n_te")
	d.keys("enter")
	if it := d.m.list.Selected(); it == nil || it.Sum.ConversationID != "n_team" {
		t.Fatalf("filtered to n_te: %+v\n%s", it, d.m.View())
	}
	d.keys("enter")
	if d.m.tl == nil || d.m.tl.ID() != "n_team" {
		t.Fatalf("n_team did not open:\n%s", d.m.View())
	}
	d.keys("esc", "esc")
	d.open(chatAB)
	d.jump(7)
	d.keys("i")
	if v := d.m.View(); !strings.Contains(v, "revoke: no notification found in n_alice_bob (seq 1-1 read)") || !strings.Contains(v, "a storage-level write sends none") {
		t.Errorf("the inspector of a storage-level revoke:\n%s", v)
	}
}
