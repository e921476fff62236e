package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
)

// TestWritesAreOneRoundTripPerBucket: hiding 10,000 seqs of a single chat
// costs one request per bucket (100 buckets), marking them read one per
// FindBatch buckets (7), and revoking the 200 seqs of two buckets two, not
// one per seq, on both backends; the reader's own messages stay unread, as
// OpenIM's MarkSingleChatMsgsAsRead (mgo/msg.go: one BulkWrite of filtered
// updates per doc_id) leaves them; and a caller watching progress hears of
// every request.
func TestWritesAreOneRoundTripPerBucket(t *testing.T) {
	t.Run("embedded", func(t *testing.T) {
		eb, err := embedded.Open(filepath.Join(t.TempDir(), "w.db"), embedded.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = eb.Close(context.Background()) })
		checkBucketWrites(t, eb, 10_000, 0, false)
	})
	t.Run("mongo", func(t *testing.T) {
		if testing.Short() {
			t.Skip("FerretDB: skipped with -short")
		}
		uri, real := mongotest.URI(t)
		// A bulk write of 100 filtered updates is one request, which
		// FerretDB answers by scanning once per update: under the race
		// detector that outlasts the default 15 s per request.
		mb, err := mongostore.Open(t.Context(), uri, mongotest.Database(t, uri), mongostore.Options{OpTimeout: 3 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = mb.Close(context.Background()) })
		// FerretDB runs each update of a bulk write on its own and scans
		// for it: 10,000 take minutes, so 200 (2 buckets) here. Its time
		// for one bulk write grows faster than its updates (20 took 0.9 s,
		// 60 3.6 s, 100 tens of seconds), so a mark read sends it one
		// bucket a request, as before; a real MongoDB gets FindBatch.
		// A delete for me sends one update per slot too (OpenIM's
		// PushUnique per seq), so there it hides the first and last ten
		// seqs of each bucket, not all 100: still a request per bucket.
		markBatch := 0
		if !real {
			markBatch = 1
		}
		checkBucketWrites(t, mb, 200, markBatch, !real)
	})
}

// checkBucketWrites writes n seqs; markBatch, when not 0, is the buckets a
// mark read request carries (store.Store.FindBatch); edges hides only the
// first and last ten seqs of each bucket.
func checkBucketWrites(t *testing.T, b store.Backend, n, markBatch int, edges bool) {
	ctx := t.Context()
	const cid = "si_alice_bob"
	counter := NewCounting(b)
	st := store.New(counter, store.Options{})
	if markBatch > 0 {
		st.FindBatch = markBatch
	}
	// Only the first and the last bucket hold messages: FerretDB scans the
	// collection for every update, and a missing bucket costs the same
	// request as a stored one.
	for _, first := range []int64{1, int64(n) - 99} {
		msgs := make([]*bucket.MsgData, 100)
		for i := range msgs {
			from, to := "alice", "bob"
			if i%2 == 1 {
				from, to = to, from
			}
			msgs[i] = &bucket.MsgData{SendID: from, RecvID: to, ClientMsgID: fmt.Sprint(first + int64(i)), SessionType: bucket.SessionSingle,
				ContentType: 101, Content: `{"content":"x"}`, SendTime: 1700000000000 + first + int64(i), Status: bucket.StatusSent}
		}
		if _, err := st.InsertMessages(ctx, cid, first, msgs); err != nil {
			t.Fatal(err)
		}
	}
	seqs := make([]int64, n)
	for i := range seqs {
		seqs[i] = int64(i + 1)
	}
	stored := append(append([]int64{}, seqs[:100]...), seqs[n-100:]...)
	write := func(what string, seqs []int64, maxTrips int64, requests int, fn func(ctx context.Context) (store.WriteResult, error)) {
		t.Helper()
		before := counter.Counts()
		last, calls := 0, 0
		res, err := fn(store.WithProgress(ctx, func(done, total int) {
			if done < last || total != len(seqs) {
				t.Errorf("%s: progress %d/%d after %d", what, done, total, last)
			}
			last = done
			calls++
		}))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if trips := counter.Counts().Sub(before).RoundTrips; trips > maxTrips {
			t.Errorf("%s of %d seqs took %d round trips, want at most %d", what, len(seqs), trips, maxTrips)
		}
		if len(res.Applied) != len(seqs) || last != len(seqs) || calls < requests {
			t.Errorf("%s: %d seqs applied, progress reached %d in %d calls; want %d, %d, one call per request (%d)",
				what, len(res.Applied), last, calls, len(seqs), len(seqs), requests)
		}
	}
	// A request per FindBatch buckets, and one round trip to raise bob's
	// read seq.
	buckets := int64(n / bucket.BucketSize)
	markRequests := (buckets + int64(st.FindBatch) - 1) / int64(st.FindBatch)
	write("mark read", seqs, markRequests+1, int(markRequests), func(ctx context.Context) (store.WriteResult, error) { return st.MarkRead(ctx, cid, seqs, "bob") })
	// A bucket each.
	hide := seqs
	if edges {
		hide = nil
		for _, seq := range seqs {
			if at := bucket.SlotIndex(seq); at < 10 || at >= 90 {
				hide = append(hide, seq)
			}
		}
	}
	write("delete for me", hide, buckets, int(buckets), func(ctx context.Context) (store.WriteResult, error) { return st.DeleteForMe(ctx, cid, hide, "bob") })
	write("revoke", stored, 2, 2, func(ctx context.Context) (store.WriteResult, error) {
		return st.Revoke(ctx, cid, stored, bucket.Revoke{Role: bucket.RoleMember, UserID: "alice", Time: 1})
	})

	bs, err := st.Buckets(ctx, cid, []int64{0, buckets - 1}, int64(n))
	if err != nil || len(bs) != 2 {
		t.Fatalf("read back: %v (%d buckets)", err, len(bs))
	}
	for _, bk := range bs {
		for _, s := range []bucket.StoredSlot{bk.Slots[0], bk.Slots[99]} { // one by alice, one by bob
			fromAlice := s.Slot.Msg.SendID == "alice"
			if s.Slot.IsRead != fromAlice {
				t.Errorf("seq %d sent by %s: is_read %v, want %v", s.Seq, s.Slot.Msg.SendID, s.Slot.IsRead, fromAlice)
			}
			if len(s.Slot.DelList) != 1 || s.Slot.Revoke == nil {
				t.Errorf("seq %d: del_list %v, revoked %v; want hidden from bob and revoked", s.Seq, s.Slot.DelList, s.Slot.Revoke != nil)
			}
		}
	}
}

// BenchmarkWrites1000 is one write of 1,000 seqs (10 buckets) of a single
// chat on the embedded store (no fsync), each iteration on a fresh
// conversation written outside the timer: mark read, delete for me and
// revoke, the operator's bulk writes.
func BenchmarkWrites1000(b *testing.B) {
	ctx := context.Background()
	seqs := make([]int64, 1000)
	for i := range seqs {
		seqs[i] = int64(i + 1)
	}
	writes := []struct {
		name string
		run  func(st *store.Store, cid string) (store.WriteResult, error)
	}{
		{"mark-read", func(st *store.Store, cid string) (store.WriteResult, error) {
			return st.MarkRead(ctx, cid, seqs, "bob")
		}},
		{"delete-for-me", func(st *store.Store, cid string) (store.WriteResult, error) {
			return st.DeleteForMe(ctx, cid, seqs, "bob")
		}},
		{"revoke", func(st *store.Store, cid string) (store.WriteResult, error) {
			return st.Revoke(ctx, cid, seqs, bucket.Revoke{Role: bucket.RoleAdmin, UserID: "user01", Time: startTime})
		}},
	}
	for _, w := range writes {
		b.Run(w.name, func(b *testing.B) {
			st := openEmbeddedStore(b)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				cid := fmt.Sprintf("si_alice_bob%d", i)
				if _, err := st.InsertMessages(ctx, cid, 1, messages(1, cid, 1, len(seqs))); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := w.run(st, cid); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
