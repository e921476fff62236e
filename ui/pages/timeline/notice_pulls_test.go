package timeline

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/recordingtest"
	"github.com/chatlens/chatlens/ui/uitest"
)

// TestNotificationInspectorSaysWhoPulledIt: on the recorded run, the
// inspector of n_g1 seq 8 (the notice of u1's revoke of sg_g1 seq 27) said
// "not read by 5 of 5", while the chat's slot says "pulled by u3: yes": a
// notification conversation has no read seqs. It now says whose pulls
// hold it, by the rule of that line: u5's window of n_g1 ends before it.
func TestNotificationInspectorSaysWhoPulledIt(t *testing.T) {
	st := recordingtest.Store(t)
	// u5's window of n_g1 ends at seq 5 (seq_user.max_seq): not pulled seq 8.
	uitest.Insert(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "u5", ConversationID: "n_g1", MaxSeq: 5})
	p := newPage(t, st, "u3", 140, 50)
	p.open("sg_g1")
	p.jump(27)
	if v := p.inspect(); !strings.Contains(v, "told by n_g1 seq 8, pulled by u3: yes") {
		t.Fatalf("the inspector of sg_g1 seq 27:\n%s", v)
	}
	p.open("n_g1") // esc, esc: back to the list, which opens n_g1
	p.jump(8)
	v := p.inspect()
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
