package store_test

import (
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// dupSeqUsers imports two seq_user documents of dpb in sg_dg1 with their
// own _ids, in this order, as OpenIM leaves them (its index on the pair is
// not unique: pkg/common/storage/database/mgo/seq_user.go), beside 11
// messages (the group's creation tip and 10 texts).
func dupSeqUsers(t *testing.T, first, second bucket.SeqUser) *store.Store {
	t.Helper()
	b := testkit.TempBackend(t)
	for _, su := range []bucket.SeqUser{first, second} {
		testkit.Insert(t, b, bucket.CollSeqUser, bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "user_id", Value: su.UserID},
			{Key: "conversation_id", Value: su.ConversationID}, {Key: "min_seq", Value: su.MinSeq}, {Key: "max_seq", Value: su.MaxSeq},
			{Key: "read_seq", Value: su.ReadSeq}})
	}
	testkit.Insert(t, b, bucket.CollConversation, bucket.Conversation{OwnerUserID: "dpb", ConversationID: "sg_dg1", ConversationType: 3, GroupID: "dg1"})
	st := store.New(b, store.Options{})
	if _, err := st.InsertMessages(t.Context(), "sg_dg1", 1, textMsgs(11)); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestDuplicateSeqUsersReadAsTheServerReads: with two seq_user documents
// for one user and conversation, the window is what the server reads, not
// the widest of the two: min_seq and max_seq from the first stored (a
// FindOne: cache/redis/seq_user.go GetUserMinSeq -> database/mgo/seq_user.go
// getSeq), read_seq from the last (GetUserReadSeqs fills a map from a find).
// The reproduction: dpb cleared sg_dg1 (min_seq 12), then a second
// document with min_seq 0 appeared; the server pulls dpb nothing of 1-11.
func TestDuplicateSeqUsersReadAsTheServerReads(t *testing.T) {
	const cid = "sg_dg1"
	cleared := bucket.SeqUser{UserID: "dpb", ConversationID: cid, MinSeq: 12, ReadSeq: 11}
	fresh := bucket.SeqUser{UserID: "dpb", ConversationID: cid, MinSeq: 0, ReadSeq: 3}
	for _, c := range []struct {
		name          string
		first, second bucket.SeqUser
		start, read   int64
	}{
		{"the cleared one first", cleared, fresh, 12, 3},
		{"the cleared one second", fresh, cleared, 1, 11},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := dupSeqUsers(t, c.first, c.second)
			ws, err := st.Windows(t.Context(), "dpb", []string{cid}, nil)
			if err != nil {
				t.Fatal(err)
			}
			w := ws[cid]
			if w.MinSeq != c.start || w.ReadSeq != c.read {
				t.Errorf("window from seq %d, read seq %d; want from %d (the first document's min_seq), read seq %d (the last's read_seq)",
					w.MinSeq, w.ReadSeq, c.start, c.read)
			}
			if w.SeqUserDocs != 2 || !strings.Contains(w.SeqUserNote, "dpb has 2 seq_user documents for sg_dg1") ||
				!strings.Contains(w.SeqUserNote, "min_seq "+strconv.FormatInt(c.first.MinSeq, 10)+" from the first stored document") {
				t.Errorf("note %q (%d documents): want it to say dpb has 2 and min_seq comes from the first stored", w.SeqUserNote, w.SeqUserDocs)
			}
			at, err := st.WindowAt(t.Context(), "dpb", *w)
			if err != nil || at.MinSeq != c.start || at.ReadSeq != c.read || at.SeqUserNote != w.SeqUserNote {
				t.Errorf("WindowAt: %+v, %v; want the same window", at, err)
			}
			if r, err := st.ReadSeqOf(t.Context(), "dpb", cid); err != nil || r != c.read {
				t.Errorf("ReadSeqOf = %d, %v; want %d", r, err, c.read)
			}
		})
	}
}
