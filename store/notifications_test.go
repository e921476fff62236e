package store_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/recordingtest"
	"github.com/chatlens/chatlens/store/testkit"
)

// recordedNotifications is, for each recorded user, the n_* conversations
// the server's newest_seq and pull gave them: cid -> first and last seq
// pulled, and newest_seq's max seq.
func recordedNotifications(t *testing.T, user string) map[string][3]int64 {
	t.Helper()
	var p struct {
		MaxSeqs map[string]int64 `json:"maxSeqs"`
		Pulls   map[string]struct {
			NotificationMsgs map[string]struct{ Msgs []struct{ Seq int64 } } `json:"notificationMsgs"`
		} `json:"pulls"`
	}
	b, err := os.ReadFile(filepath.Join(recordingtest.Dir(t, recordingtest.OpenIM), "pull_"+user+".json"))
	if err == nil {
		err = json.Unmarshal(b, &p)
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][3]int64{}
	for cid, max := range p.MaxSeqs {
		if !strings.HasPrefix(cid, "n_") {
			continue
		}
		msgs := p.Pulls[cid].NotificationMsgs[cid].Msgs
		if len(msgs) == 0 {
			t.Fatalf("%s %s: newest_seq names it, the pull gave nothing", user, cid)
		}
		out[cid] = [3]int64{msgs[0].Seq, msgs[len(msgs)-1].Seq, max}
	}
	return out
}

// TestNotificationConversationsAreThoseThePullGives: each recorded user's
// notification conversations are the n_* ones the server pulled them
// (sync_msg.go GetMaxSeq: those of their conversations, n_g1 and n_u1_u2,
// and their own n_<u>_<u> when it holds anything), each window the seqs
// the pull gave, its newest message the last one pulled.
func TestNotificationConversationsAreThoseThePullGives(t *testing.T) {
	st := recordingtest.Store(t)
	for _, user := range []string{"u1", "u2", "u3", "u4", "u5", "u6"} {
		want := recordedNotifications(t, user)
		got, err := st.NotificationsOf(t.Context(), user)
		if err != nil {
			t.Fatal(err)
		}
		var gotIDs []string
		for _, s := range got {
			gotIDs = append(gotIDs, s.ConversationID)
			w, ok := want[s.ConversationID]
			if !ok {
				continue
			}
			if s.Window.MinSeq != w[0] || s.Window.MaxSeq != w[1] || s.Window.MaxSeq != w[2] {
				t.Errorf("%s %s: window %d-%d; the server pulled %d-%d, newest_seq %d", user, s.ConversationID, s.Window.MinSeq, s.Window.MaxSeq, w[0], w[1], w[2])
			}
			if s.Newest == nil || s.Newest.Seq != w[1] {
				t.Errorf("%s %s: newest message %v, want seq %d", user, s.ConversationID, s.Newest, w[1])
			}
		}
		wantIDs := slices.Collect(func(yield func(string) bool) {
			for cid := range want {
				if !yield(cid) {
					return
				}
			}
		})
		sort.Strings(wantIDs)
		sort.Strings(gotIDs)
		if !slices.Equal(gotIDs, wantIDs) {
			t.Errorf("%s: notification conversations %v; the server pulled %v", user, gotIDs, wantIDs)
		}
	}
}

// TestNotificationWindowsAreCappedBySeqUser: seq_user.max_seq ends a
// user's window of a notification conversation (controller/msg.go
// GetMsgBySeqs), and seq_user.min_seq starts it.
func TestNotificationWindowsAreCappedBySeqUser(t *testing.T) {
	st := recordingtest.Store(t)
	testkit.Insert(t, st.Backend(), bucket.CollSeqUser, bson.D{{Key: "user_id", Value: "u4"}, {Key: "conversation_id", Value: "n_g1"},
		{Key: "min_seq", Value: int64(3)}, {Key: "max_seq", Value: int64(9)}, {Key: "read_seq", Value: int64(0)}})
	got, err := st.NotificationsOf(t.Context(), "u4")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ConversationID != "n_g1" || got[0].Window.MinSeq != 3 || got[0].Window.MaxSeq != 9 || got[0].CapField != "seq_user.max_seq" {
		t.Fatalf("u4's notification conversations %+v; want n_g1 seq 3-9, capped by seq_user.max_seq", got)
	}
	if got[0].Newest == nil || got[0].Newest.Seq != 9 {
		t.Errorf("newest message %v, want seq 9", got[0].Newest)
	}
}
