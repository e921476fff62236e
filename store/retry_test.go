package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// deadlocked answers the first failures inserts of a bucket with what
// FerretDB on PostgreSQL answered some of 8 racing inserts: a deadlock,
// which wrote nothing.
// It serves store.BucketWriter's InsertBucket; every other call goes
// to the Backend it wraps.
type deadlocked struct {
	store.Backend
	failures int64
	inserts  atomic.Int64
}

func (d *deadlocked) InsertBucket(ctx context.Context, doc *bucket.Doc) error {
	if d.inserts.Add(1) <= d.failures {
		return fmt.Errorf("insert msg: ERROR: deadlock detected (SQLSTATE 40P01): %w", store.ErrNotWritten)
	}
	return d.Backend.InsertBucket(ctx, doc)
}

// TestWriteThatWroteNothingIsRetried: a revoke that creates its bucket and
// is answered "deadlock detected" is tried again through the state machine
// (update, then insert) and done, the audit saying it was retried; a
// deadlock on every try is reported after MaxWriteRetries retries, failed,
// and the error says how often it was tried.
func TestWriteThatWroteNothingIsRetried(t *testing.T) {
	const cid = "sg_g"
	for _, c := range []struct {
		name     string
		failures int64
		ok       bool
	}{
		{"deadlocked twice", 2, true},
		{"deadlocked every time", 100, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var log bytes.Buffer
			b := &deadlocked{Backend: testkit.TempBackend(t), failures: c.failures}
			s := store.New(b, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
			_, err := s.Revoke(t.Context(), cid, []int64{7}, bucket.Revoke{UserID: "alice", Time: 5})
			entries := testkit.AuditEntries(t, log.Bytes())
			last := entries[len(entries)-1]
			if c.ok {
				if err != nil || last.Result != store.ResultOK || last.Retried != 2 {
					t.Errorf("revoke: %v, audit %+v; want done, audited ok after 2 retries", err, last)
				}
				if got := b.inserts.Load(); got != 3 {
					t.Errorf("%d inserts, want 3", got)
				}
				return
			}
			if err == nil || !errors.Is(err, store.ErrNotWritten) || !strings.Contains(err.Error(), fmt.Sprintf("tried %d times", store.MaxWriteRetries+1)) {
				t.Errorf("revoke deadlocked every time: %v; want the deadlock, tried %d times", err, store.MaxWriteRetries+1)
			}
			if last.Result != store.ResultFailed || last.Retried != store.MaxWriteRetries {
				t.Errorf("audit %+v; want failed after %d retries", last, store.MaxWriteRetries)
			}
			if got := b.inserts.Load(); got != store.MaxWriteRetries+1 {
				t.Errorf("%d inserts, want %d", got, store.MaxWriteRetries+1)
			}
		})
	}
}

// slotDeadlocked fails the first one-slot conditional update as deadlocked.
// It serves store.BucketWriter's SetSlotFieldIfUnset; every other call
// goes to the Backend it wraps.
type slotDeadlocked struct {
	store.Backend
	calls atomic.Int64
}

func (d *slotDeadlocked) SetSlotFieldIfUnset(ctx context.Context, id string, slot int, f string, v any) (bool, error) {
	if d.calls.Add(1) == 1 {
		return false, fmt.Errorf("update msg: deadlock detected: %w", store.ErrNotWritten)
	}
	return d.Backend.SetSlotFieldIfUnset(ctx, id, slot, f, v)
}

// TestSlotBySlotWriteIsRetried: when a bucket's conditional update missed
// (seq 8 revoked by another writer), the slot-by-slot writes that follow
// are retried like the bucket's: seq 7 is done after one deadlock.
func TestSlotBySlotWriteIsRetried(t *testing.T) {
	const cid = "sg_g"
	var log bytes.Buffer
	b := &slotDeadlocked{Backend: testkit.TempBackend(t)}
	s := store.New(b, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
	if _, err := s.Revoke(t.Context(), cid, []int64{8}, bucket.Revoke{UserID: "bob", Time: 4}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Revoke(t.Context(), cid, []int64{7, 8}, bucket.Revoke{UserID: "alice", Time: 5})
	entries := testkit.AuditEntries(t, log.Bytes())
	last := entries[len(entries)-1]
	if store.FormatSeqs(res.Applied) != "7" || last.Retried != 1 || !strings.Contains(fmt.Sprint(err), "already revoked") {
		t.Errorf("revoke 7-8 with 8 revoked: applied %v, %v, audit %+v; want 7 done after one retry, 8 already revoked", res.Applied, err, last)
	}
}

// notWrittenFirst answers the first fails calls of each write other than a
// bucket's (a delete's $addToSet, a mark read's bulk request, the $max of
// max_seq and read_seq) "nothing written", as a primary stepping down
// does (code 189, PrimarySteppedDown; mongostore/msg.go notWrittenCodes).
// The first mark read request marks its first slot before it fails, as an
// ordered BulkWrite stopped at its second update does; later ones none.
// It serves store.BucketWriter's AddToDelLists and MarkSlotsRead and
// store.SeqRecorder's raises; every other call goes to the Backend it wraps.
type notWrittenFirst struct {
	store.Backend
	fails               int
	del, read, max, rsq int
	marked              [][]int // the slots of each mark read request, in order
}

func stepDown(n *int, fails int) error {
	if *n++; *n <= fails {
		return fmt.Errorf("update: PrimarySteppedDown: %w", store.ErrNotWritten)
	}
	return nil
}

func (b *notWrittenFirst) AddToDelLists(ctx context.Context, id string, slots []int, users []string) (int, error) {
	if err := stepDown(&b.del, b.fails); err != nil {
		return 0, err
	}
	return b.Backend.AddToDelLists(ctx, id, slots, users)
}

func (b *notWrittenFirst) MarkSlotsRead(ctx context.Context, runs []store.BucketSlots, reader string) (int, error) {
	var slots []int
	for _, r := range runs {
		slots = append(slots, r.Slots...)
	}
	b.marked = append(b.marked, slots)
	if err := stepDown(&b.read, b.fails); err != nil {
		if b.read > 1 {
			return 0, err
		}
		first := []store.BucketSlots{{DocID: runs[0].DocID, Slots: runs[0].Slots[:1]}}
		ran, _ := b.Backend.MarkSlotsRead(ctx, first, reader)
		return ran, err
	}
	return b.Backend.MarkSlotsRead(ctx, runs, reader)
}

func (b *notWrittenFirst) RaiseMaxSeq(ctx context.Context, cid string, seq int64) error {
	if err := stepDown(&b.max, b.fails); err != nil {
		return err
	}
	return b.Backend.RaiseMaxSeq(ctx, cid, seq)
}

func (b *notWrittenFirst) RaiseReadSeq(ctx context.Context, uid, cid string, seq int64) error {
	if err := stepDown(&b.rsq, b.fails); err != nil {
		return err
	}
	return b.Backend.RaiseReadSeq(ctx, uid, cid, seq)
}

// TestEveryWriteThatWroteNothingIsRetried: delete, mark read (its bulk
// request and its read seq) and insert (its max_seq) answered "nothing
// written" once are tried again and done, the audit counting the retries;
// a mark read's retry sends only the slots the failed request did not
// reach. Answered so every time, each fails after MaxWriteRetries retries
// and says how often it was tried. Before, only bucket writes were retried:
// a step-down during a delete or a mark read failed it outright.
func TestEveryWriteThatWroteNothingIsRetried(t *testing.T) {
	const cid = "si_alice_bob"
	for _, c := range []struct {
		name    string
		retried int
		write   func(ctx context.Context, s *store.Store) error
		check   func(t *testing.T, s *store.Store, b *notWrittenFirst)
	}{
		{"delete", 1, func(ctx context.Context, s *store.Store) error {
			_, err := s.DeleteForMe(ctx, cid, []int64{2, 3}, "bob")
			return err
		}, func(t *testing.T, s *store.Store, _ *notWrittenFirst) {
			if got := slotsWhere(t, s, cid, 5, func(sl *bucket.Slot) bool { return slices.Contains(sl.DelList, "bob") }); got != "2-3" {
				t.Errorf("deleted for bob: %q, want 2-3", got)
			}
		}},
		{"read", 2, func(ctx context.Context, s *store.Store) error {
			_, err := s.MarkRead(ctx, cid, []int64{2, 3, 4}, "bob")
			return err
		}, func(t *testing.T, s *store.Store, b *notWrittenFirst) {
			if got := slotsWhere(t, s, cid, 5, func(sl *bucket.Slot) bool { return sl.IsRead }); got != "2-4" {
				t.Errorf("read: %q, want 2-4", got)
			}
			if fmt.Sprint(b.marked) != "[[1 2 3] [2 3]]" {
				t.Errorf("mark read requests %v, want the retry to send the slots not reached", b.marked)
			}
			ws, err := s.Windows(t.Context(), "bob", []string{cid}, nil)
			if err != nil || ws[cid].ReadSeq != 4 {
				t.Errorf("read seq %d (%v), want 4", ws[cid].ReadSeq, err)
			}
		}},
		{"insert", 1, func(ctx context.Context, s *store.Store) error {
			_, err := s.InsertMessages(ctx, cid, 6, textMsgs(2))
			return err
		}, func(t *testing.T, s *store.Store, _ *notWrittenFirst) {
			recs, err := s.Backend().SeqRecords(t.Context(), []string{cid})
			if err != nil || len(recs) != 1 || recs[0].MaxSeq != 7 {
				t.Errorf("seq records %+v (%v), want max_seq 7", recs, err)
			}
		}},
	} {
		for _, fails := range []int{1, 100} {
			t.Run(fmt.Sprintf("%s/nothing written %d times", c.name, min(fails, store.MaxWriteRetries+1)), func(t *testing.T) {
				b := &notWrittenFirst{Backend: seeded(t, cid, 5, store.Options{}).Backend(), fails: fails}
				var log bytes.Buffer
				s := store.New(b, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
				err := c.write(t.Context(), s)
				entries := testkit.AuditEntries(t, log.Bytes())
				last := entries[len(entries)-1]
				if fails == 1 {
					if err != nil || last.Result != store.ResultOK || last.Retried != c.retried {
						t.Fatalf("%s: %v, audit %+v; want done, audited ok after %d retries", c.name, err, last, c.retried)
					}
					c.check(t, s, b)
					return
				}
				tried := fmt.Sprintf("tried %d times", store.MaxWriteRetries+1)
				if !errors.Is(err, store.ErrNotWritten) || !strings.Contains(fmt.Sprint(err), tried) ||
					last.Retried < store.MaxWriteRetries || !strings.Contains(last.Error, tried) {
					t.Errorf("%s answered 'nothing written' every time: %v, audit %+v; want it %s, the audit saying so", c.name, err, last, tried)
				}
			})
		}
	}
}

// slotsWhere lists the seqs 1-n of cid whose slot holds pred, as ranges.
func slotsWhere(t *testing.T, s *store.Store, cid string, n int64, pred func(*bucket.Slot) bool) string {
	t.Helper()
	seqs := make([]int64, n)
	for i := range seqs {
		seqs[i] = int64(i + 1)
	}
	slots, err := s.Slots(t.Context(), cid, seqs, n)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, seq := range seqs {
		if sl := slots[seq].Slot; sl != nil && pred(sl) {
			out = append(out, seq)
		}
	}
	return store.FormatSeqs(out)
}
