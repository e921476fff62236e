package store_test

import (
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestListReadsWhatARowShows: a list of 300 conversations of 10 messages
// each reads, of their buckets, the newest message alone: in all, within
// twice the bytes of what its rows show (the conversation, seq and
// seq_user documents and the newest slot of each), where reading each
// newest bucket whole read more than five times as much. Still four
// round trips: the three collections and one read of every newest slot.
func TestListReadsWhatARowShows(t *testing.T) {
	const owner, rows = "u1", 300
	b := testkit.TempBackend(t)
	w := store.New(b, store.Options{})
	cids := make([]string, rows)
	for i := range cids {
		cids[i] = fmt.Sprintf("sg_g%03d", i)
		msgs := textMsgs(10)
		for j, m := range msgs {
			m.SendTime += int64(i*100 + j)
		}
		if _, err := w.InsertMessages(t.Context(), cids[i], 1, msgs); err != nil {
			t.Fatal(err)
		}
		testkit.Insert(t, b, bucket.CollConversation, bson.D{{Key: "owner_user_id", Value: owner}, {Key: "conversation_id", Value: cids[i]}})
		testkit.Insert(t, b, bucket.CollSeqUser, bson.D{{Key: "user_id", Value: owner}, {Key: "conversation_id", Value: cids[i]}, {Key: "read_seq", Value: int64(3)}})
	}
	s := store.New(b, store.Options{})
	read := func(what string, f func() error) int64 {
		t.Helper()
		before, _ := s.Traffic()
		if err := f(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		after, _ := s.Traffic()
		return after.BytesRead - before.BytesRead
	}
	content := read("records", func() error {
		if _, err := b.Conversations(t.Context(), owner); err != nil {
			return err
		}
		if _, err := b.SeqRecords(t.Context(), cids); err != nil {
			return err
		}
		_, err := b.SeqUsers(t.Context(), owner, cids)
		return err
	})
	content += read("newest slots", func() error {
		for _, cid := range cids {
			if _, _, err := b.FindSlots(t.Context(), bucket.DocID(cid, 0), 9, 1); err != nil {
				return err
			}
		}
		return nil
	})
	buckets := read("newest buckets", func() error {
		for _, cid := range cids {
			if _, err := b.FindBuckets(t.Context(), []string{bucket.DocID(cid, 0)}); err != nil {
				return err
			}
		}
		return nil
	})
	trips := s.Stats().RoundTrips
	var list []store.ConversationSummary
	listed := read("list", func() (err error) { list, err = s.ConversationsOf(t.Context(), owner); return err })
	if got := s.Stats().RoundTrips - trips; got != 4 {
		t.Errorf("the list took %d round trips, want 4", got)
	}
	t.Logf("%d rows: the list read %d bytes (%d a row); what they show %d; their newest buckets whole %d",
		rows, listed, listed/rows, content, buckets)
	if listed > 2*content {
		t.Errorf("the list read %d bytes, more than twice what its rows show (%d)", listed, content)
	}
	if buckets < 5*content {
		t.Errorf("the newest buckets whole are %d bytes, the rows' content %d: the comparison says nothing", buckets, content)
	}
	for _, row := range list {
		if row.Window.MaxSeq != 10 || row.Window.Newest == nil || row.Window.Newest.Seq != 10 {
			t.Errorf("%s: max seq %d, newest %v; want 10 and the message at 10", row.ConversationID, row.Window.MaxSeq, row.Window.Newest)
		}
	}
}
