package store_test

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// twoSeqUsers answers every seq_user read with a second document for the
// same user and conversation, as two racing first upserts leave on
// MongoDB and FerretDB (OpenIM's seq_user index is not unique:
// pkg/common/storage/database/mgo/seq_user.go).
type twoSeqUsers struct {
	store.Backend
	extra bucket.SeqUser
}

func (b twoSeqUsers) SeqUsers(ctx context.Context, uid string, cids []string) ([]bucket.SeqUser, error) {
	got, err := b.Backend.SeqUsers(ctx, uid, cids)
	if err == nil && uid == b.extra.UserID {
		got = append(got, b.extra)
	}
	return got, err
}

// TestDuplicateSeqUsersReadAsTheWidest: of two seq_user documents, the
// window takes the highest read seq and the lowest start, whichever the
// backend returns first.
func TestDuplicateSeqUsersReadAsTheWidest(t *testing.T) {
	const cid = "si_alice_bob"
	for _, c := range []struct {
		name          string
		stored, extra bucket.SeqUser
	}{
		{"the duplicate read further", bucket.SeqUser{UserID: "alice", ConversationID: cid, MinSeq: 5, ReadSeq: 3},
			bucket.SeqUser{UserID: "alice", ConversationID: cid, MinSeq: 0, ReadSeq: 8}},
		{"the stored one read further", bucket.SeqUser{UserID: "alice", ConversationID: cid, MinSeq: 0, ReadSeq: 8},
			bucket.SeqUser{UserID: "alice", ConversationID: cid, MinSeq: 5, ReadSeq: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := testkit.TempBackend(t)
			testkit.Insert(t, b, bucket.CollSeqUser, c.stored)
			testkit.Insert(t, b, bucket.CollSeq, bson.D{{Key: "conversation_id", Value: cid}, {Key: "max_seq", Value: int64(10)}, {Key: "min_seq", Value: int64(0)}})
			st := store.New(twoSeqUsers{Backend: b, extra: c.extra}, store.Options{})
			if _, err := st.InsertMessages(t.Context(), cid, 1, textMsgs(10)); err != nil {
				t.Fatal(err)
			}
			ws, err := st.Windows(t.Context(), "alice", []string{cid}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if w := ws[cid]; w.ReadSeq != 8 || w.MinSeq != 1 {
				t.Errorf("window read seq %d, start %d; want 8 and 1 (the highest read, the lowest start)", w.ReadSeq, w.MinSeq)
			}
			at, err := st.WindowAt(t.Context(), "alice", *ws[cid])
			if err != nil || at.ReadSeq != 8 || at.MinSeq != 1 {
				t.Errorf("WindowAt: %+v, %v; want read seq 8 from seq 1", at, err)
			}
		})
	}
}
