package store_test

import (
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// Every member's read seq comes from one read of seq_user and one of the
// cache, and the cache's wins wherever it has one, as it does for a
// viewer's own window (cache/redis/seq_user.go GetUserReadSeqs reads
// seq_user only for a missing key).
func TestReadersReadEveryMemberInOneRoundTripPerLayer(t *testing.T) {
	cache := newFakeCache()
	b := testkit.TempBackend(t)
	testkit.Insert(t, b, bucket.CollSeqUser,
		bucket.SeqUser{UserID: "u1", ConversationID: "sg_g", ReadSeq: 40},
		bucket.SeqUser{UserID: "u2", ConversationID: "sg_g", ReadSeq: 10},
		bucket.SeqUser{UserID: "u2", ConversationID: "sg_other", ReadSeq: 99})
	cache.read["sg_g/u2"] = 25 // newer than seq_user
	cache.read["sg_g/u1"] = 5  // lower: still the server's answer
	s := store.New(b, store.Options{Cache: cache})
	members := []store.Member{{UserID: "u1"}, {UserID: "u2"}, {UserID: "u3"}}
	got, err := s.Readers(t.Context(), "sg_g", members)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"u1": 5, "u2": 25, "u3": 0}
	if len(got) != 3 {
		t.Fatalf("Readers = %+v, want 3", got)
	}
	for _, r := range got {
		if r.ReadSeq != want[r.UserID] {
			t.Errorf("%s read seq = %d, want %d", r.UserID, r.ReadSeq, want[r.UserID])
		}
	}
	if st := s.Stats(); st.RoundTrips != 1 || st.CacheRoundTrips != 1 {
		t.Errorf("round trips = %d, cache %d; want 1 and 1", st.RoundTrips, st.CacheRoundTrips)
	}
	// The same rule as Windows: the viewer's read seq agrees.
	ws, err := s.Windows(t.Context(), "u2", []string{"sg_g"}, map[string]bucket.Conversation{})
	if err != nil {
		t.Fatal(err)
	}
	if ws["sg_g"].ReadSeq != 25 {
		t.Errorf("u2's window read seq = %d, Readers says 25", ws["sg_g"].ReadSeq)
	}
}
