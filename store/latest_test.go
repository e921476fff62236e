package store_test

import (
	"testing"

	"github.com/chatlens/chatlens/store"
)

// TestLatestSeqReadsNoBucket: following a conversation asks where its
// messages end with one round trip: MALLOC_SEQ:<cid> CURR when the cache
// knows it (OpenIM's cache/redis/seq_conversation.go GetMaxSeq reads its
// CURR field), else the seq document's max_seq (mgo/seq_conversation.go,
// which Malloc raises a block at a time: the LAST of the cache).
func TestLatestSeqReadsNoBucket(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "sg_g1", 10, store.Options{Cache: cache})
	before := s.Stats()
	seq, from, err := s.LatestSeq(t.Context(), "sg_g1")
	if err != nil || seq != 10 || from != "seq.max_seq" {
		t.Errorf("without the cache knowing: %d from %q, %v; want 10 from seq.max_seq", seq, from, err)
	}
	if got := s.Stats().RoundTrips - before.RoundTrips; got != 1 {
		t.Errorf("%d round trips, want 1 (the seq document)", got)
	}
	cache.max["sg_g1"] = 12 // Redis has allocated seqs MongoDB has not got yet
	before = s.Stats()
	seq, from, err = s.LatestSeq(t.Context(), "sg_g1")
	if err != nil || seq != 12 || from != "MALLOC_SEQ:sg_g1" {
		t.Errorf("with the cache: %d from %q, %v; want 12 from MALLOC_SEQ:sg_g1", seq, from, err)
	}
	if got := s.Stats().RoundTrips - before.RoundTrips; got != 0 {
		t.Errorf("%d store round trips with the cache answering, want 0", got)
	}
}
