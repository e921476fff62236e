package main

import (
	"context"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/openimapi/openimtest"
)

const clearedChat = "si_rpa1_rpb1"

// clearedSingleChat is a single chat of rpa1 (odd seqs) and rpb1 (even
// ones), 30 messages, where rpb1 cleared their history before seq 11
// (seq_user.min_seq 11) and seq 28 was deleted physically for everyone
// (msgs.27 is {msg: null}, as mgo/msg.go DeleteMsgsInOneDocByIndex leaves
// it).
func clearedSingleChat(t *testing.T) sandbox {
	t.Helper()
	s := empty(t)
	var msgs bson.A
	for seq := int64(1); seq <= 100; seq++ {
		slot := bucket.Slot{DelList: []string{}}
		if seq <= 30 {
			sender, recv := "rpa1", "rpb1"
			if seq%2 == 0 {
				sender, recv = recv, sender
			}
			slot.Msg = &bucket.MsgData{SendID: sender, RecvID: recv, SessionType: bucket.SessionSingle, ContentType: 101,
				Content: `{"content":"m"}`, Seq: seq, SendTime: 1700000000000 + seq, MsgFrom: 100, Status: 2,
				ClientMsgID: "c" + store.FormatSeqs([]int64{seq}), ServerMsgID: "s" + store.FormatSeqs([]int64{seq})}
		}
		if seq == 28 {
			msgs = append(msgs, bson.D{{Key: "msg", Value: nil}})
			continue
		}
		msgs = append(msgs, slot)
	}
	s.importDocs(t, "msg", bson.D{{Key: "doc_id", Value: clearedChat + ":0"}, {Key: "msgs", Value: msgs}})
	s.importDocs(t, "seq", bucket.SeqRecord{ConversationID: clearedChat, MaxSeq: 30})
	s.importDocs(t, "user", bucket.User{UserID: "rpa1", Nickname: "A"}, bucket.User{UserID: "rpb1", Nickname: "B"})
	s.importDocs(t, "conversation",
		bucket.Conversation{OwnerUserID: "rpa1", ConversationID: clearedChat, ConversationType: 1, UserID: "rpb1"},
		bucket.Conversation{OwnerUserID: "rpb1", ConversationID: clearedChat, ConversationType: 1, UserID: "rpa1", MinSeq: 11})
	s.importDocs(t, "seq_user",
		bucket.SeqUser{UserID: "rpb1", ConversationID: clearedChat, MinSeq: 11, ReadSeq: 10},
		bucket.SeqUser{UserID: "rpa1", ConversationID: clearedChat})
	return s
}

// TestWritesTheServerAccepts: a mark read of a seq before the reader's
// cleared start, and a delete for me of a range over a physically deleted
// seq, are what the server accepts (internal/rpc/msg/as_read.go
// MarkMsgsAsRead and delete.go DeleteMsgs look at no window; the randomized
// runs against OpenIM Server had mark_msgs_as_read of [3] answer 0 and the
// other side see seq 3 read). chatlens accepts them too, in storage and
// through the API, does to the store what the server does, and says what
// it did to each of those seqs.
func TestWritesTheServerAccepts(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"storage", "api"} {
		t.Run(mode, func(t *testing.T) {
			s := clearedSingleChat(t)
			var via []string
			if mode == "api" {
				b, err := embedded.Open(s.data, embedded.Options{Shared: true})
				if err != nil {
					t.Fatal(err)
				}
				srv := openimtest.Start(store.New(b, store.Options{}), "sekret-1234")
				t.Cleanup(func() { srv.Close(); _ = b.Close(context.Background()) })
				via = []string{"--openim-api", srv.URL, "--openim-secret", "sekret-1234"}
			}
			res := s.chatlens(t, append([]string{"read", "--conversation", clearedChat, "--seq", "3", "--by", "rpb1"}, via...)...)
			if res.code != 0 {
				t.Fatalf("read of seq 3 by rpb1: exit %d: %s", res.code, res.stderr)
			}
			for _, want := range []string{"seq 3: before rpb1's first visible seq 11 (history cleared): marked as the server marks it",
				"seq 3: rpb1's read seq stays 10"} {
				if !strings.Contains(res.stderr, want) {
					t.Errorf("read's stderr %q does not say %q", res.stderr, want)
				}
			}
			if objs := s.dumpJSON(t, clearedChat, "rpa1", "--from", "3", "--to", "3"); len(objs) != 1 || objs[0]["isRead"] != true {
				t.Errorf("rpa1's seq 3 after rpb1 marked it read: %v, want isRead true", objs)
			}

			res = s.chatlens(t, append([]string{"delete", "--conversation", clearedChat, "--seq", "26-29", "--by", "rpb1"}, via...)...)
			if res.code != 0 {
				t.Fatalf("delete of seq 26-29 by rpb1: exit %d: %s", res.code, res.stderr)
			}
			if want := "seq 28: no message there (physically deleted): rpb1 is added to its del_list, as the server adds it"; !strings.Contains(res.stderr, want) {
				t.Errorf("delete's stderr %q does not say %q", res.stderr, want)
			}
			st := s.stored(t)
			slots := slotsOf(t, st, clearedChat, 30)
			for _, seq := range []int64{26, 27, 28, 29} {
				sl := slots[seq].Slot
				if sl == nil || len(sl.DelList) != 1 || sl.DelList[0] != "rpb1" {
					t.Errorf("seq %d after the delete: %+v, want rpb1 in its del_list", seq, sl)
				}
			}
			if sl := slots[28].Slot; sl == nil || sl.Msg != nil {
				t.Errorf("seq 28 after the delete: %+v, want still no message", sl)
			}
			es := auditEntries(t, s)
			if e := es[len(es)-1]; e.Result != store.ResultOK || (e.Via == store.ViaAPI) != (mode == "api") {
				t.Errorf("the delete's outcome line: %+v, want ok, via the API only in api mode", e)
			}
		})
	}
}
