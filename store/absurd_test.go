package store_test

import (
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// A MALLOC_SEQ CURR of 9000000000000000000 (or 100000000) over a chat of 50
// messages made every reader walk (or allocate for) that many seqs: dump
// panicked in makeslice or hung. The cached max is believed only up to the
// bucket after the newest stored one (Redis may run a bucket ahead).
func TestCachedMaxIsTrustedOnlyUpToTheStoredBuckets(t *testing.T) {
	const cid = "si_alice_bob"
	b := testkit.TempBackend(t)
	if _, err := store.New(b, store.Options{}).InsertMessages(t.Context(), cid, 1, textMsgs(50)); err != nil {
		t.Fatal(err)
	}
	for _, curr := range []int64{9000000000000000000, 100000000, 9223372036854775807} {
		cache := newFakeCache()
		cache.max[cid] = curr
		s := store.New(b, store.Options{Cache: cache})
		ws, err := s.Windows(t.Context(), "alice", []string{cid}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := ws[cid].MaxSeq; got < 50 || got > 200 {
			t.Errorf("CURR %d: window max seq %d, want 50..200 (the stored bucket and one more)", curr, got)
		}
	}
	// A cached max inside the stored data, or just past it, is believed.
	for _, curr := range []int64{30, 150} {
		cache := newFakeCache()
		cache.max[cid] = curr
		ws, err := store.New(b, store.Options{Cache: cache}).Windows(t.Context(), "alice", []string{cid}, nil)
		if err != nil || ws[cid].MaxSeq != curr {
			t.Errorf("CURR %d: window max seq %d (%v), want it as cached", curr, ws[cid].MaxSeq, err)
		}
	}
}

// A bucket stored at index 10,000,000 beside one at 0: a scan of the whole
// window reads the two buckets and reports the run between as one gap,
// with a handful of round trips instead of 625,000 finds.
func TestScanWalksOnlyStoredBuckets(t *testing.T) {
	const cid = "sg_far"
	const far = 1_000_000_001 // first seq of bucket 10,000,000
	b := testkit.TempBackend(t)
	w := store.New(b, store.Options{})
	if _, err := w.InsertMessages(t.Context(), cid, 1, textMsgs(50)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.InsertMessages(t.Context(), cid, far, textMsgs(10)); err != nil {
		t.Fatal(err)
	}
	s := store.New(b, store.Options{})
	ws, err := s.Windows(t.Context(), "alice", []string{cid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	win := ws[cid]
	if win.MaxSeq != far+9 {
		t.Fatalf("window max seq %d, want %d", win.MaxSeq, far+9)
	}
	before := s.Stats().RoundTrips
	var got []int64
	var gaps [][2]int64
	err = s.Scan(t.Context(), win, 1, win.MaxSeq, func(batch []*bucket.Bucket) error {
		for _, b := range batch {
			got = append(got, b.Index)
		}
		return nil
	}, func(from, to int64) error {
		gaps = append(gaps, [2]int64{from, to})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != 0 || got[1] != 10_000_000 {
		t.Errorf("scanned buckets %v, want [0 10000000]", got)
	}
	if len(gaps) != 1 || gaps[0] != [2]int64{101, far - 1} {
		t.Errorf("gaps %v, want one from 101 to %d", gaps, far-1)
	}
	if trips := s.Stats().RoundTrips - before; trips > 3 {
		t.Errorf("the scan took %d round trips", trips)
	}
}
