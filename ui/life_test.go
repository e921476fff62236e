package ui

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/uitest"
)

// seedLife writes the changes of team note 6 and the notifications the
// server leaves of them: read by bob (a 2200 at 09:35) and carol (09:50),
// revoked by carol, an admin (09:40), deleted for alice (a 2102 at 09:45).
func seedLife(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := t.Context()
	notice := func(from string, i int, ct int32, detail string) *bucket.MsgData {
		m := uitest.TextMsg(from, from, "", bucket.SessionSingle, i, "")
		b, _ := json.Marshal(map[string]string{"detail": detail})
		m.ContentType, m.MsgFrom, m.Content = ct, bucket.MsgFromSystem, string(b)
		return m
	}
	second := func(_ store.WriteResult, err error) error { return err }
	for _, err := range []error{
		second(st.MarkRead(ctx, chatT, []int64{6}, "bob")),
		second(st.MarkRead(ctx, chatT, []int64{6}, "carol")),
		second(st.Revoke(ctx, chatT, []int64{6}, bucket.Revoke{UserID: "carol", Nickname: "Carol", Role: bucket.RoleAdmin, Time: uitest.Base.Add(40 * time.Minute).UnixMilli()})),
		second(st.DeleteForMe(ctx, chatT, []int64{6}, "alice")),
		second(st.InsertMessages(ctx, "n_team", 1, []*bucket.MsgData{
			notice("bob", 35, bucket.ContentReadReceipt, `{"markAsReadUserID":"bob","conversationID":"sg_team","seqs":[6,7],"hasReadSeq":7}`),
			notice("carol", 50, bucket.ContentReadReceipt, `{"markAsReadUserID":"carol","conversationID":"sg_team","seqs":[6],"hasReadSeq":6}`),
		})),
		second(st.InsertMessages(ctx, store.SelfNotificationID("alice"), 1, []*bucket.MsgData{
			notice("alice", 45, bucket.ContentDeleteNotice, `{"userID":"alice","conversationID":"sg_team","seqs":[6]}`),
		})),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestGoldenInspectorLife: the inspector of a message revoked by an admin,
// deleted for one member and read by two lists its life in time order,
// each change with the record that dates it.
func TestGoldenInspectorLife(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	seedLife(t, st)
	opts, _ := testOptions(t, "alice")
	tm := teatest.NewTestModel(t, testModel(st, opts), teatest.WithInitialTermSize(100, 40))
	s := &screen{t: t, tm: tm, tb: tb}
	s.waitFor("hello 120 from bob")
	s.keys("enter")
	s.waitFor("team note 30")
	s.keys(":")
	s.typeText("6")
	s.keys("enter")
	s.waitFor("seq 6/30")
	s.keys("i")
	s.waitFor("deleted for alice  (2102 in n_alice_alice seq 1)", "read by 2 of 2", "read: told by n_team seq 2")
	s.check()
}
