package ui

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/recordingtest"
)

// TestNotificationInspectorSaysWhoPulledIt: on the recorded run, the
// inspector of n_g1 seq 8 (the notice of u1's revoke of sg_g1 seq 27) said
// "not read by 5 of 5", while the chat's slot says "pulled by u3: yes": a
// notification conversation has no read seqs. It now says whose pulls
// hold it, by the rule of that line: u5's window of n_g1 ends before it.
func TestNotificationInspectorSaysWhoPulledIt(t *testing.T) {
	st := recordingtest.Store(t)
	// u5's window of n_g1 ends at seq 5 (seq_user.max_seq): not pulled seq 8.
	insertRaw(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "u5", ConversationID: "n_g1", MaxSeq: 5})
	opts, _ := testOptions(t, "u3")
	d := newDriver(t, st, opts, 140, 50)
	d.open("sg_g1")
	d.jump(27)
	d.keys("i")
	if v := d.m.View(); !strings.Contains(v, "told by n_g1 seq 8, pulled by u3: yes") {
		t.Fatalf("the inspector of sg_g1 seq 27:\n%s", v)
	}
	d.keys("esc", "esc")
	d.open("n_g1")
	d.jump(8)
	d.keys("i")
	v := d.m.View()
	if strings.Contains(v, "read by") {
		t.Errorf("the inspector of a notification speaks of readers:\n%s", v)
	}
	for _, want := range []string{"pulled      pulled by 4 of 5: User 1 (u1), User 2 (u2), User 3 (u3), User 6 (u6)",
		"not pulled by 1 of 5: User 5 (u5)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the inspector of n_g1 seq 8 does not say %q:\n%s", want, v)
		}
	}
}

// TestGoldenNotificationInspector: the inspector of a notification says
// whose pulls hold it, not who has read it.
func TestGoldenNotificationInspector(t *testing.T) {
	s := startNoticeScreen(t)
	s.keys("/")
	s.typeText("n_team")
	s.keys("enter", "enter")
	s.waitFor("as alice", "alice revoked a message (seq 5 of sg_team)")
	s.keys("i")
	s.waitFor("pulled by 3 of 3")
	s.check()
}
