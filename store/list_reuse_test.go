package store_test

import (
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// windowWords is what a list row and the timeline show of a window.
func windowWords(w bucket.Window) string {
	return fmt.Sprintf("%s %d..%d read %d unread %d cap %q unpulled %v", w.Cid, w.MinSeq, w.MaxSeq, w.ReadSeq, w.Unread(),
		w.CapField, w.NoConversationDoc)
}

// newestSeq is the seq of a window's newest message, 0 for none.
func newestSeq(w bucket.Window) int64 {
	if w.Newest == nil {
		return 0
	}
	return w.Newest.Seq
}

// TestListReusingAnotherUsersWindows: bob's list read after ann's, taking
// what her windows hold for everyone, is the list ConversationsOf reads
// for him (his read seqs, his own cap, a conversation she does not have),
// and his window of one he owns no document for is WindowAt's; in his
// conversation and seq_user documents, the seq document and newest
// slots of the one conversation new to the list, and the bucket where his
// cap (conversation.max_seq 200) ends his window of the shared one, for
// his newest message there (5 round trips, against ConversationsOf's 5
// and WindowAt's 2).
func TestListReusingAnotherUsersWindows(t *testing.T) {
	const shared, bobs, anns = "sg_club", "si_bob_cy", "sg_annonly"
	b := testkit.TempBackend(t)
	w := store.New(b, store.Options{})
	for cid, n := range map[string]int{shared: 250, bobs: 30, anns: 40} {
		if _, err := w.InsertMessages(t.Context(), cid, 1, textMsgs(n)); err != nil {
			t.Fatal(err)
		}
	}
	testkit.Insert(t, b, bucket.CollConversation,
		bson.D{{Key: "owner_user_id", Value: "ann"}, {Key: "conversation_id", Value: shared}},
		bson.D{{Key: "owner_user_id", Value: "ann"}, {Key: "conversation_id", Value: anns}},
		bson.D{{Key: "owner_user_id", Value: "bob"}, {Key: "conversation_id", Value: shared}, {Key: "max_seq", Value: int64(200)}},
		bson.D{{Key: "owner_user_id", Value: "bob"}, {Key: "conversation_id", Value: bobs}})
	testkit.Insert(t, b, bucket.CollSeqUser,
		bson.D{{Key: "user_id", Value: "ann"}, {Key: "conversation_id", Value: shared}, {Key: "read_seq", Value: int64(10)}},
		bson.D{{Key: "user_id", Value: "bob"}, {Key: "conversation_id", Value: shared}, {Key: "read_seq", Value: int64(150)},
			{Key: "min_seq", Value: int64(21)}},
		bson.D{{Key: "user_id", Value: "bob"}, {Key: "conversation_id", Value: anns}, {Key: "read_seq", Value: int64(7)}})
	s := store.New(b, store.Options{})
	annList, err := s.ConversationsOf(t.Context(), "ann")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bucket.Window{}
	for _, c := range annList {
		known[c.ConversationID] = c.Window
	}
	want, err := s.ConversationsOf(t.Context(), "bob")
	if err != nil {
		t.Fatal(err)
	}
	at := known[anns]
	wantAt, err := s.WindowAt(t.Context(), "bob", at)
	if err != nil {
		t.Fatal(err)
	}
	before := s.Stats().RoundTrips
	recs, err := s.ReadViewer(t.Context(), "bob", &at)
	if err != nil {
		t.Fatal(err)
	}
	gotAt := recs.Window
	if trips := s.Stats().RoundTrips - before; trips != 2 {
		t.Errorf("bob's records and window took %d round trips, want 2", trips)
	}
	got, err := s.ConversationsReusing(t.Context(), recs, known, store.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if trips := s.Stats().RoundTrips - before; trips != 5 {
		t.Errorf("bob's list after ann's took %d round trips, want 5", trips)
	}
	if len(got) != len(want) {
		t.Fatalf("bob's list has %d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if g, w := windowWords(got[i].Window), windowWords(want[i].Window); g != w {
			t.Errorf("row %d: %s, want %s", i, g, w)
		}
		if (got[i].Last == nil) != (want[i].Last == nil) || got[i].Last != nil && got[i].Last.DocID != want[i].Last.DocID {
			t.Errorf("row %d: newest bucket %v, want %v", i, got[i].Last, want[i].Last)
		}
		if g, w := newestSeq(got[i].Window), newestSeq(want[i].Window); g != w || w == 0 {
			t.Errorf("row %d: newest message at seq %d, want %d (not 0)", i, g, w)
		}
	}
	if gotAt == nil || windowWords(*gotAt) != windowWords(*wantAt) {
		t.Errorf("bob's window of %s: %v, want WindowAt's %s", anns, gotAt, windowWords(*wantAt))
	}
}
