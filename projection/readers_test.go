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
func TestReadReceiptWords(t *testing.T) {
	members := NewReadReceipts([]Reader{{UserID: "u1", Name: "Ann", ReadSeq: 50}, {UserID: "u2", ReadSeq: 10},
		{UserID: "u3", Name: "Cy\x1b[2J", ReadSeq: 10}, {UserID: "u4", ReadSeq: 9}})
	group := Message{MsgData: bucket.MsgData{Seq: 10, SendID: "u2", SessionType: bucket.SessionGroup}}
	got := members.Words(group)
	want := []string{"read by 2 of 3: Ann, Cy^[[2J", "not read by 1 of 3: u4"}
	if !slices.Equal(got, want) {
		t.Errorf("group = %q, want %q", got, want)
	}
	single := Message{MsgData: bucket.MsgData{Seq: 10, SendID: "alice", SessionType: bucket.SessionSingle}}
	pair := []Reader{{UserID: "alice", ReadSeq: 0}, {UserID: "bob", Name: "Bob", ReadSeq: 9}}
	if got := NewReadReceipts(pair).Words(single); !slices.Equal(got, []string{"not read by Bob (read seq 9)"}) {
		t.Errorf("single = %q", got)
	}
	pair[1].ReadSeq = 10
	if got := NewReadReceipts(pair).Words(single); !slices.Equal(got, []string{"read by Bob (read seq 10)"}) {
		t.Errorf("single, read = %q", got)
	}
	if got := members.Words(Message{MsgData: bucket.MsgData{Seq: 3}, Hole: true}); got != nil {
		t.Errorf("hole = %q, want nothing", got)
	}
	if members.Name("u1") != "Ann" || members.Name("u2") != "" {
		t.Errorf("names: %q %q", members.Name("u1"), members.Name("u2"))
	}
}

func TestReadByListsAtMostTwentyNames(t *testing.T) {
	var members []Reader
	for i := range 25 {
		members = append(members, Reader{UserID: string(rune('a' + i)), ReadSeq: 5})
	}
	got := NewReadReceipts(members).Words(Message{MsgData: bucket.MsgData{Seq: 5, SendID: "zz", SessionType: bucket.SessionGroup}})
	if len(got) != 1 || got[0] != "read by 25 of 25: a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t and 5 more" {
		t.Errorf("got %q", got)
	}
}

// BenchmarkReadReceiptWords: who has read one row of a group of 11 with
// names in several scripts, as dump --explain asks it for every row.
func BenchmarkReadReceiptWords(b *testing.B) {
	names := []string{"Omar Haddad", "Alice Chen", "山田健二", "Bob Müller", "Hana Sato 🌸", "李雷", "Lucas Silva 🎸", "김민아", "Ольга Смирнова", "Sofía García", "王芳"}
	var rs []Reader
	for i, n := range names {
		rs = append(rs, Reader{UserID: string(rune('a' + i)), Name: n, ReadSeq: 100})
	}
	rr := NewReadReceipts(rs)
	m := Message{MsgData: bucket.MsgData{Seq: 50, SendID: "a", SessionType: bucket.SessionGroup}}
	for b.Loop() {
		rr.Words(m)
	}
}
