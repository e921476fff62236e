package store_test

import (
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

func TestWindowAtReadsNoBucket(t *testing.T) {
	s := seeded(t, "sg_g1", 250, store.Options{})
	testkit.Insert(t, s.Backend(), bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "m1", ConversationID: "sg_g1", ConversationType: 3, GroupID: "g1"},
		bucket.Conversation{OwnerUserID: "m2", ConversationID: "sg_g1", ConversationType: 3, GroupID: "g1", MinSeq: 90, MaxSeq: 180})
	testkit.Insert(t, s.Backend(), bucket.CollSeqUser, bucket.SeqUser{UserID: "m2", ConversationID: "sg_g1", MinSeq: 20, ReadSeq: 150})
	ws, err := s.Windows(t.Context(), "m1", []string{"sg_g1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := ws["sg_g1"]
	if first.EndSeq != 250 || first.MaxSeq != 250 {
		t.Fatalf("m1's window ends at %d (end %d), want 250", first.MaxSeq, first.EndSeq)
	}
	cases := []struct {
		uid                     string
		wantMin, wantMax, wantR int64
	}{
		{"m2", 20, 180, 150}, // from seq_user.min_seq, capped by conversation.max_seq; conversation.min_seq 90 plays no part
		{"m1", 1, 250, 0},
	}
	for _, c := range cases {
		before := s.Stats().RoundTrips
		w, err := s.WindowAt(t.Context(), c.uid, *first)
		if err != nil {
			t.Fatal(err)
		}
		if w.MinSeq != c.wantMin || w.MaxSeq != c.wantMax || w.ReadSeq != c.wantR || w.EndSeq != 250 || w.Last != nil {
			t.Errorf("%s: window %+v, want min %d max %d read %d end 250", c.uid, *w, c.wantMin, c.wantMax, c.wantR)
		}
		if got := s.Stats().RoundTrips - before; got != 2 {
			t.Errorf("%s: WindowAt took %d round trips, want 2 (seq_user, conversation)", c.uid, got)
		}
	}
	// The same answer as the full read, which had to read the newest bucket.
	full, err := s.Windows(t.Context(), "m2", []string{"sg_g1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := full["sg_g1"]; f.MinSeq != 20 || f.MaxSeq != 180 || f.ReadSeq != 150 {
		t.Errorf("Windows disagrees with WindowAt: %+v", *f)
	}
}

func TestNewestBucketsReadsEveryConversationInOneFind(t *testing.T) {
	s := store.New(testkit.TempBackend(t), store.Options{})
	sizes := map[string]int64{"sg_a": 5, "sg_b": 150, "sg_empty": 0, "sg_d": 301}
	var windows []bucket.Window
	for cid, n := range sizes {
		if n > 0 {
			if _, err := s.InsertMessages(t.Context(), cid, 1, textMsgs(int(n))); err != nil {
				t.Fatal(err)
			}
		}
		windows = append(windows, bucket.Window{Cid: cid, MaxSeq: n})
	}
	before := s.Stats().RoundTrips
	got, err := s.NewestBuckets(t.Context(), windows)
	if err != nil {
		t.Fatal(err)
	}
	if trips := s.Stats().RoundTrips - before; trips != 1 {
		t.Errorf("newest buckets of %d conversations took %d round trips, want 1", len(windows), trips)
	}
	if _, ok := got["sg_empty"]; ok || len(got) != 3 {
		t.Errorf("got buckets of %d conversations, want 3 (the empty one left out)", len(got))
	}
	for cid, n := range sizes {
		if b := got[cid]; n > 0 && (b == nil || b.Index != bucket.BucketIndex(n) || b.LastFilledSeq() != n) {
			t.Errorf("%s: newest bucket is not the one ending at seq %d", cid, n)
		}
	}
}

func TestNewestBucketsTakeTheCacheFirst(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "sg_g1", 10, store.Options{Cache: cache})
	// Redis holds seqs 11 and 12 before MongoDB does.
	for _, seq := range []int64{11, 12} {
		cache.slots[seq] = &bucket.Slot{Msg: &bucket.MsgData{Content: "only in cache", Seq: seq, SendTime: 1}}
	}
	got, err := s.NewestBuckets(t.Context(), []bucket.Window{{Cid: "sg_g1", MaxSeq: 12}})
	if err != nil {
		t.Fatal(err)
	}
	b := got["sg_g1"]
	if b == nil || b.LastFilledSeq() != 12 || !b.Slots[11].Cached || b.Slots[9].Cached || b.Slots[9].IsHole() {
		t.Fatalf("newest bucket does not merge the cached seqs 11-12 over the stored 1-10")
	}
	if trips := s.Stats().RoundTrips; trips != 1 {
		t.Errorf("%d backend round trips, want 1", trips)
	}

	// A bucket the cache holds entirely is not read from the backend.
	for seq := int64(1); seq <= 10; seq++ {
		cache.slots[seq] = &bucket.Slot{Msg: &bucket.MsgData{Seq: seq, SendTime: 1}}
	}
	if _, err := s.NewestBuckets(t.Context(), []bucket.Window{{Cid: "sg_g1", MaxSeq: 12}}); err != nil {
		t.Fatal(err)
	}
	if trips := s.Stats().RoundTrips; trips != 1 {
		t.Errorf("a fully cached newest bucket was read from the backend")
	}
}
