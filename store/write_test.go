package store_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// countingBackend counts the calls that reach the backend and can fail
// every write.
// It serves the writes of store.BucketWriter and store.SeqRecorder;
// every other call goes to the Backend it wraps.
type countingBackend struct {
	store.Backend
	writes   atomic.Int64
	failWith error
}

func (c *countingBackend) write() error { c.writes.Add(1); return c.failWith }

func (c *countingBackend) SetSlotsField(ctx context.Context, id, f string, sets []store.SlotValue) (bool, error) {
	if err := c.write(); err != nil {
		return false, err
	}
	return c.Backend.SetSlotsField(ctx, id, f, sets)
}

func (c *countingBackend) SetSlotsFieldIfUnset(ctx context.Context, id, f string, sets []store.SlotValue) (bool, error) {
	if err := c.write(); err != nil {
		return false, err
	}
	return c.Backend.SetSlotsFieldIfUnset(ctx, id, f, sets)
}

func (c *countingBackend) SetSlotFieldIfUnset(ctx context.Context, id string, slot int, f string, v any) (bool, error) {
	if err := c.write(); err != nil {
		return false, err
	}
	return c.Backend.SetSlotFieldIfUnset(ctx, id, slot, f, v)
}

func (c *countingBackend) InsertBucket(ctx context.Context, d *bucket.Doc) error {
	if err := c.write(); err != nil {
		return err
	}
	return c.Backend.InsertBucket(ctx, d)
}

func (c *countingBackend) AddToDelLists(ctx context.Context, id string, slots []int, users []string) (int, error) {
	if err := c.write(); err != nil {
		return 0, err
	}
	return c.Backend.AddToDelLists(ctx, id, slots, users)
}

func (c *countingBackend) MarkSlotsRead(ctx context.Context, runs []store.BucketSlots, reader string) (int, error) {
	if err := c.write(); err != nil {
		return 0, err
	}
	return c.Backend.MarkSlotsRead(ctx, runs, reader)
}

func (c *countingBackend) RaiseReadSeq(ctx context.Context, uid, cid string, seq int64) error {
	if err := c.write(); err != nil {
		return err
	}
	return c.Backend.RaiseReadSeq(ctx, uid, cid, seq)
}

func (c *countingBackend) RaiseMaxSeq(ctx context.Context, cid string, seq int64) error {
	if err := c.write(); err != nil {
		return err
	}
	return c.Backend.RaiseMaxSeq(ctx, cid, seq)
}

func textMsgs(n int) []*bucket.MsgData {
	out := make([]*bucket.MsgData, n)
	for i := range out {
		out[i] = &bucket.MsgData{SendID: "alice", Content: `{"content":"hi"}`, ContentType: 101, SendTime: 1700000000000}
	}
	return out
}

// writes are the four kinds of write, each run against a Store.
var writes = []struct {
	action string
	run    func(ctx context.Context, s *store.Store) (store.WriteResult, error)
}{
	{"insert", func(ctx context.Context, s *store.Store) (store.WriteResult, error) {
		return s.InsertMessages(ctx, "si_alice_bob", 1, textMsgs(3))
	}},
	{"revoke", func(ctx context.Context, s *store.Store) (store.WriteResult, error) {
		return s.Revoke(ctx, "si_alice_bob", []int64{1}, bucket.Revoke{UserID: "alice"})
	}},
	{"delete", func(ctx context.Context, s *store.Store) (store.WriteResult, error) {
		return s.DeleteForMe(ctx, "si_alice_bob", []int64{2}, "bob")
	}},
	{"read", func(ctx context.Context, s *store.Store) (store.WriteResult, error) {
		return s.MarkRead(ctx, "si_alice_bob", []int64{1, 2}, "bob")
	}},
}

func TestReadOnlyRefusesBeforeTheBackend(t *testing.T) {
	backend := &countingBackend{Backend: testkit.TempBackend(t)}
	var log bytes.Buffer
	s := store.New(backend, store.Options{ReadOnly: true, Audit: store.NewAuditLog(&log), Operator: "ops"})
	for _, w := range writes {
		if _, err := w.run(t.Context(), s); !errors.Is(err, store.ErrReadOnly) {
			t.Errorf("%s on a read-only store: %v, want ErrReadOnly", w.action, err)
		}
	}
	if n := backend.writes.Load(); n != 0 {
		t.Errorf("%d writes reached the backend of a read-only store", n)
	}
	entries := testkit.AuditEntries(t, log.Bytes())
	if len(entries) != len(writes) {
		t.Fatalf("%d audit entries, want %d", len(entries), len(writes))
	}
	for i, e := range entries {
		if e.Action != writes[i].action || e.Result != "refused" || e.Operator != "ops" {
			t.Errorf("audit entry %d = %+v, want %s refused by ops", i, e, writes[i].action)
		}
	}
}

func TestEveryWriteIsAudited(t *testing.T) {
	var log bytes.Buffer
	s := store.New(testkit.TempBackend(t), store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
	for _, w := range writes {
		if _, err := w.run(t.Context(), s); err != nil {
			t.Fatalf("%s: %v", w.action, err)
		}
	}
	failing := &countingBackend{Backend: testkit.TempBackend(t), failWith: errors.New("disk on fire")}
	sf := store.New(failing, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
	if _, err := sf.Revoke(t.Context(), "si_alice_bob", []int64{1}, bucket.Revoke{UserID: "alice"}); err == nil {
		t.Fatalf("revoke on a failing backend reported success")
	}
	entries := testkit.AuditEntries(t, log.Bytes())
	var got []string
	for _, e := range entries {
		got = append(got, e.Action+" "+e.Conversation+" "+store.FormatSeqs(e.Seqs)+" "+e.Result)
	}
	want := []string{"insert si_alice_bob 1-3 intent", "insert si_alice_bob 1-3 ok",
		"revoke si_alice_bob 1 intent", "revoke si_alice_bob 1 ok", "delete si_alice_bob 2 intent", "delete si_alice_bob 2 ok",
		"read si_alice_bob 1-2 intent", "read si_alice_bob 1-2 ok", "revoke si_alice_bob 1 intent", "revoke si_alice_bob 1 failed"}
	if !slices.Equal(got, want) {
		t.Errorf("audit log = %q, want %q", got, want)
	}
	if last := entries[len(entries)-1]; !strings.Contains(last.Error, "disk on fire") || last.As != "alice" {
		t.Errorf("failed entry = %+v, want the backend's error and the revoker", last)
	}
}

func TestInsertRoundTrips(t *testing.T) {
	s := store.New(testkit.TempBackend(t), store.Options{})
	// Seqs 95..310 into an empty conversation: one failed update, then one
	// insert per bucket (4), then raising max_seq.
	if _, err := s.InsertMessages(t.Context(), "sg_g1", 95, textMsgs(216)); err != nil {
		t.Fatal(err)
	}
	if got := s.Stats().RoundTrips; got != 6 {
		t.Errorf("inserting 95..310 took %d round trips, want 6", got)
	}
	// Into existing buckets each bucket is one update of all its slots, not
	// one per seq: 98..203 touch buckets 0, 1 and 2.
	if _, err := s.InsertMessages(t.Context(), "sg_g1", 98, textMsgs(106)); err != nil {
		t.Fatal(err)
	}
	if got := s.Stats().RoundTrips; got != 6+3+1 {
		t.Errorf("replaying 98..203 took %d round trips, want 4", got-6)
	}
}

func TestWriteRejectsSeqZero(t *testing.T) {
	backend := &countingBackend{Backend: testkit.TempBackend(t)}
	s := store.New(backend, store.Options{})
	if _, err := s.InsertMessages(t.Context(), "sg_g1", 0, textMsgs(1)); err == nil || !strings.Contains(err.Error(), "seqs start at 1") {
		t.Errorf("insert at seq 0: %v, want an error saying seqs start at 1", err)
	}
	if _, err := s.Revoke(t.Context(), "sg_g1", []int64{0}, bucket.Revoke{}); err == nil {
		t.Errorf("revoke of seq 0 succeeded")
	}
	if n := backend.writes.Load(); n != 0 {
		t.Errorf("%d writes reached the backend for seq 0", n)
	}
}

func TestWritesInvalidateTheCache(t *testing.T) {
	for _, w := range writes {
		t.Run(w.action, func(t *testing.T) {
			cache := newFakeCache()
			s := store.New(testkit.TempBackend(t), store.Options{Cache: cache})
			res, err := w.run(t.Context(), s)
			if err != nil || res.StaleCache != nil {
				t.Fatalf("%s: %v, stale %v", w.action, err, res.StaleCache)
			}
			if !slices.Equal(cache.invalidated, res.Seqs) || len(res.Seqs) == 0 {
				t.Errorf("%s invalidated %v, want the touched seqs %v", w.action, cache.invalidated, res.Seqs)
			}
		})
	}
}

func TestFailedInvalidationIsReportedNotHidden(t *testing.T) {
	cache := newFakeCache()
	cache.fail = errors.New("redis down")
	var log bytes.Buffer
	b := testkit.TempBackend(t)
	s := store.New(b, store.Options{Cache: cache, Audit: store.NewAuditLog(&log)})
	if _, err := store.New(b, store.Options{}).InsertMessages(t.Context(), "si_alice_bob", 1, textMsgs(1)); err != nil {
		t.Fatal(err)
	}
	res, err := s.Revoke(t.Context(), "si_alice_bob", []int64{1}, bucket.Revoke{UserID: "alice"})
	if err != nil {
		t.Fatalf("revoke with the cache down: %v (the backend change stands, so it must not fail)", err)
	}
	if res.StaleCache == nil || !strings.Contains(res.StaleCache.Error(), "redis down") {
		t.Errorf("StaleCache = %v, want the cache's error", res.StaleCache)
	}
	bs, err := s.Buckets(t.Context(), "si_alice_bob", []int64{0}, 1)
	if err != nil || bs[0].Slots[0].Slot.Revoke == nil {
		t.Errorf("revoke did not reach the backend: %v", err)
	}
	if e := testkit.AuditEntries(t, log.Bytes()); len(e) != 2 || e[1].Result != "ok-cache-stale" {
		t.Errorf("audit = %+v, want the intent and one ok-cache-stale entry", e)
	}
	if s.Stats().CacheError == nil {
		t.Errorf("Stats().CacheError is nil after a failed invalidation")
	}
}

func TestMarkReadRaisesTheCachedReadSeq(t *testing.T) {
	cache := newFakeCache()
	s := store.New(testkit.TempBackend(t), store.Options{Cache: cache})
	if _, err := s.MarkRead(t.Context(), "sg_g1", []int64{7, 3}, "bob"); err != nil {
		t.Fatal(err)
	}
	if got := cache.read["sg_g1/bob"]; got != 7 {
		t.Errorf("cached read seq = %d, want 7", got)
	}
}
