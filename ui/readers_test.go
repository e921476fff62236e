package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// TestGoldenInspectorReadBy: in a group the inspector says which of the
// other members have read the message under the cursor (read seq >= its
// seq) and which not; alice sent seq 15, so she is not counted
// (openim-sdk-core internal/conversation_msg/read_drawing.go: a client
// never marks its own messages read).
func TestGoldenInspectorReadBy(t *testing.T) {
	s := startScreenWith(t, func(st *store.Store) {
		insertRaw(t, st, bucket.CollSeqUser,
			bucket.SeqUser{UserID: "bob", ConversationID: chatT, ReadSeq: 20},
			bucket.SeqUser{UserID: "carol", ConversationID: chatT, ReadSeq: 10})
	})
	s.keys("/")
	s.typeText(chatT)
	s.keys("enter", "enter")
	s.waitFor("team note 30")
	s.keys(":")
	s.typeText("15")
	s.keys("enter")
	s.waitFor("▸ 15 ")
	s.keys("i")
	s.waitFor("read by 1 of 2: Bob", "not read by 1 of 2: Carol")
	s.check()
}

// membersCounter counts the reads of a group's members.
type membersCounter struct {
	store.Backend
	reads int
}

func (b *membersCounter) GroupMembers(ctx context.Context, groupID string) ([]bucket.GroupMember, error) {
	b.reads++
	return b.Backend.GroupMembers(ctx, groupID)
}

// TestTheInspectorsMembersServeV: the inspector reads the group's members
// to say who has read a message; V and the picker after it take those
// members, reading them no second time (before, V read them again). (The
// message's life reads them once more on i, for the viewer's join_time
// where the conversation document has no create_time.)
func TestTheInspectorsMembersServeV(t *testing.T) {
	base, tb := newTestStore(t, false)
	seedSmall(t, base)
	mc := &membersCounter{Backend: tb}
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, store.New(mc, store.Options{}), opts, 120, 40)
	d.open(chatT)
	d.keys("i")
	if !strings.Contains(d.m.View(), "read by") {
		t.Fatalf("the inspector says nothing of who has read it:\n%s", d.m.View())
	}
	opened := mc.reads
	if opened > 2 {
		t.Errorf("i read the members %d times, want at most twice (the readers, the life)", opened)
	}
	d.keys("esc", "V", "v")
	if mc.reads != opened {
		t.Errorf("V and its picker read the members %d more times, want none", mc.reads-opened)
	}
	d.keys("esc")
	if d.m.tl.Viewer() == "alice" {
		t.Errorf("V did not switch the viewer")
	}
}
