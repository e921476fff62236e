package projection

import (
	"slices"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// A member has read seq S when their read seq is at least S; the sender is
// never counted among the readers of their own message (OpenIM's clients
// never mark their own messages read: openim-sdk-core
// internal/conversation_msg/read_drawing.go, getAsReadMsgMapAndList).
func TestReadByWords(t *testing.T) {
	members := []Reader{{UserID: "u1", Name: "Ann", ReadSeq: 50}, {UserID: "u2", ReadSeq: 10},
		{UserID: "u3", Name: "Cy", ReadSeq: 10}, {UserID: "u4", ReadSeq: 9}}
	group := Message{Seq: 10, SendID: "u2", SessionType: bucket.SessionGroup}
	got := ReadByWords(group, members)
	want := []string{"read by 2 of 3: Ann, Cy", "not read by 1 of 3: u4"}
	if !slices.Equal(got, want) {
		t.Errorf("group = %q, want %q", got, want)
	}
	single := Message{Seq: 10, SendID: "alice", SessionType: bucket.SessionSingle}
	pair := []Reader{{UserID: "alice", ReadSeq: 0}, {UserID: "bob", Name: "Bob", ReadSeq: 9}}
	if got := ReadByWords(single, pair); !slices.Equal(got, []string{"not read by Bob (read seq 9)"}) {
		t.Errorf("single = %q", got)
	}
	pair[1].ReadSeq = 10
	if got := ReadByWords(single, pair); !slices.Equal(got, []string{"read by Bob (read seq 10)"}) {
		t.Errorf("single, read = %q", got)
	}
	if got := ReadByWords(Message{Seq: 3, Hole: true}, members); got != nil {
		t.Errorf("hole = %q, want nothing", got)
	}
}

func TestReadByListsAtMostTwentyNames(t *testing.T) {
	var members []Reader
	for i := range 25 {
		members = append(members, Reader{UserID: string(rune('a' + i)), ReadSeq: 5})
	}
	got := ReadByWords(Message{Seq: 5, SendID: "zz", SessionType: bucket.SessionGroup}, members)
	if len(got) != 1 || got[0] != "read by 25 of 25: a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t and 5 more" {
		t.Errorf("got %q", got)
	}
}
