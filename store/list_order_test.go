package store_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestListInTheAppsOrder: the list is in the order the user's app shows
// it (openim-sdk-core pkg/db/conversation_model.go GetAllConversationListDB
// orders by "case when is_pinned=1 then 0 else 1 end,
// max(latest_msg_send_time,draft_text_time) DESC"): pinned first, then by
// the send time of the newest message in the viewer's window, newest
// first, not by conversation ID; a conversation whose window holds none
// comes last. A window capped by conversation.max_seq sorts by the newest
// message it holds, not the conversation's.
func TestListInTheAppsOrder(t *testing.T) {
	const owner = "u1"
	b := testkit.TempBackend(t)
	w := store.New(b, store.Options{})
	at := func(cid string, times ...int64) {
		msgs := textMsgs(len(times))
		for i, ts := range times {
			msgs[i].SendTime = ts
		}
		if _, err := w.InsertMessages(t.Context(), cid, 1, msgs); err != nil {
			t.Fatal(err)
		}
	}
	at("sg_a", 1000, 5000)        // newest at 5000
	at("sg_b", 9000)              // the most recent
	at("sg_c", 2000, 3000, 99000) // capped at seq 2: 3000, not 99000
	at("sg_pinned_old", 100)      // pinned: first however old
	at("sg_pinned_new", 200)      // pinned and newer than the other pinned
	at("sg_z", 4000)              // between sg_a and sg_c
	for _, c := range []bson.D{
		{{Key: "conversation_id", Value: "sg_a"}},
		{{Key: "conversation_id", Value: "sg_b"}},
		{{Key: "conversation_id", Value: "sg_c"}, {Key: "max_seq", Value: int64(2)}},
		{{Key: "conversation_id", Value: "sg_empty"}},
		{{Key: "conversation_id", Value: "sg_pinned_old"}, {Key: "is_pinned", Value: true}},
		{{Key: "conversation_id", Value: "sg_pinned_new"}, {Key: "is_pinned", Value: true}},
		{{Key: "conversation_id", Value: "sg_z"}},
	} {
		testkit.Insert(t, b, bucket.CollConversation, append(bson.D{{Key: "owner_user_id", Value: owner}}, c...))
	}
	want := []string{"sg_pinned_new", "sg_pinned_old", "sg_b", "sg_a", "sg_z", "sg_c", "sg_empty"}
	for _, o := range []store.ListOptions{{}, {WholeNewest: 64}} { // the newest slots alone, or whole buckets
		list, err := store.New(b, store.Options{}).ConversationList(t.Context(), owner, o)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, row := range list {
			got = append(got, row.ConversationID)
		}
		if len(got) != len(want) {
			t.Fatalf("%+v: list %v, want %v", o, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%+v: list %v, want %v", o, got, want)
			}
		}
		if ts := list[5].Window.LatestSendTime(); ts != 3000 {
			t.Errorf("%+v: sg_c capped at seq 2 sorts by %d, want 3000", o, ts)
		}
	}
}
