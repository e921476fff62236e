package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
