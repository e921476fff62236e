package store_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// A read seq in Redis is the read seq, even when MongoDB's is higher: the
// server reads seq_user only when the SEQ_USER_READ key is missing
// (pkg/common/storage/cache/redis/seq_user.go GetUserReadSeqs), and
// mark_msgs_as_read of seqs 5,3 leaves Redis at 3 and MongoDB at 5
// (internal/rpc/msg/as_read.go MarkMsgsAsRead writes the last seq;
// msgtransfer's doSetReadSeq the largest).
func TestCachedReadSeqWinsEvenWhenLower(t *testing.T) {
	const cid = "si_alice_bob"
	cache := newFakeCache()
	s := seeded(t, cid, 20, store.Options{Cache: cache})
	if err := s.Backend().RaiseReadSeq(t.Context(), "alice", cid, 5); err != nil {
		t.Fatal(err)
	}
	cache.read[cid+"/alice"] = 3
	ws, err := s.Windows(t.Context(), "alice", []string{cid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := ws[cid]; w.ReadSeq != 3 || w.Unread() != 17 {
		t.Errorf("read seq %d, unread %d; want Redis's 3 and 17, as the server reports", w.ReadSeq, w.Unread())
	}
	delete(cache.read, cid+"/alice")
	if ws, _ = s.Windows(t.Context(), "alice", []string{cid}, nil); ws[cid].ReadSeq != 5 {
		t.Errorf("no Redis key: read seq %d, want seq_user's 5", ws[cid].ReadSeq)
	}
}

// The unread count is the app's, max seq - read seq, whatever the window's
// start (openim-sdk-core internal/conversation_msg/sync.go): a user whose
// seq_user.min_seq is 5, read seq 0 and max seq 20 is shown 20 unread.
func TestUnreadIgnoresTheWindowStart(t *testing.T) {
	const cid = "si_alice_bob"
	s := seeded(t, cid, 20, store.Options{})
	testkit.Insert(t, s.Backend(), bucket.CollSeqUser,
		bson.D{{Key: "user_id", Value: "alice"}, {Key: "conversation_id", Value: cid}, {Key: "min_seq", Value: int64(5)}, {Key: "read_seq", Value: int64(0)}})
	ws, err := s.Windows(t.Context(), "alice", []string{cid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := ws[cid]; w.MinSeq != 5 || w.Unread() != 20 {
		t.Errorf("window from %d, unread %d; want rows from 5 and 20 unread", w.MinSeq, w.Unread())
	}
}

// A user who owns no conversation document for a conversation is pulled
// nothing of it (internal/rpc/msg/sync_msg.go PullMessageBySeqs); a
// notification conversation is pulled without one, and a store that keeps
// no conversation documents at all says nothing either way.
func TestNoConversationDocumentIsPulledNothing(t *testing.T) {
	const group, notice = "sg_g1", "n_g1"
	s := seeded(t, group, 20, store.Options{})
	if _, err := s.InsertMessages(t.Context(), notice, 1, textMsgs(3)); err != nil {
		t.Fatal(err)
	}
	for _, uid := range []string{"alice", "imAdmin"} {
		ws, err := s.Windows(t.Context(), uid, []string{group, notice}, nil)
		if err != nil || ws[group].PulledNothing() || ws[notice].PulledNothing() {
			t.Fatalf("no conversation collection at all: %s flagged %v/%v (%v)", uid, ws[group].PulledNothing(), ws[notice].PulledNothing(), err)
		}
	}
	testkit.Insert(t, s.Backend(), bucket.CollConversation,
		bson.D{{Key: "owner_user_id", Value: "alice"}, {Key: "conversation_id", Value: group}, {Key: "conversation_type", Value: int32(3)}})
	for uid, want := range map[string]bool{"alice": false, "imAdmin": true, "bob": true} {
		ws, err := s.Windows(t.Context(), uid, []string{group, notice}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ws[group].PulledNothing() != want || ws[notice].PulledNothing() {
			t.Errorf("%s: %s NoConversation %v, %s %v; want %v and false", uid, group, ws[group].PulledNothing(), notice, ws[notice].PulledNothing(), want)
		}
		if ws[group].MaxSeq != 20 {
			t.Errorf("%s: the window's seqs changed to max %d: a revoke still reads them", uid, ws[group].MaxSeq)
		}
		at, err := s.WindowAt(t.Context(), uid, *ws[group])
		if err != nil || at.PulledNothing() != want {
			t.Errorf("%s: WindowAt NoConversation %v (%v), want %v", uid, at.PulledNothing(), err, want)
		}
	}
}

// A revoke looks its message up with GetMsgBySeqs, which caps every
// conversation by seq_user.max_seq (controller/msg.go GetMsgBySeqs;
// internal/rpc/msg/revoke.go): past it the server answers "msg not found",
// in a group too, where the pull itself is not capped by it.
func TestRevokePastSeqUserMaxSeqIsNotFound(t *testing.T) {
	const cid = "si_alice_bob"
	s := seeded(t, cid, 200, store.Options{})
	testkit.Insert(t, s.Backend(), bucket.CollSeqUser,
		bson.D{{Key: "user_id", Value: "alice"}, {Key: "conversation_id", Value: cid}, {Key: "max_seq", Value: int64(100)}})
	err := s.CheckTargets(t.Context(), cid, "alice", []int64{90, 153}, store.ActionRevoke)
	if err == nil || !strings.Contains(err.Error(), "seq 153: msg not found: past alice's seq_user.max_seq 100") || strings.Contains(err.Error(), "seq 90") {
		t.Errorf("revoke of 90 and 153 with seq_user.max_seq 100: %v; want 153 refused as not found, 90 allowed", err)
	}
}
