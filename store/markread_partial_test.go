package store_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
)

// cancelAfter cancels a write's context once n buckets were marked read,
// as Ctrl-C does: between requests when the nth bucket ends one, else
// inside the request, which then stops after its nth bucket and says the
// write was cancelled.
// It serves store.BucketWriter's MarkSlotsRead; every other call goes
// to the Backend it wraps.
type cancelAfter struct {
	store.Backend
	n      int
	cancel context.CancelFunc
}

func (b *cancelAfter) MarkSlotsRead(ctx context.Context, runs []store.BucketSlots, reader string) (int, error) {
	if len(runs) > b.n {
		ran, err := b.Backend.MarkSlotsRead(ctx, runs[:b.n], reader)
		b.n = 0
		b.cancel()
		return ran, cmp.Or(err, ctx.Err())
	}
	ran, err := b.Backend.MarkSlotsRead(ctx, runs, reader)
	if b.n -= len(runs); b.n == 0 {
		b.cancel()
	}
	return ran, err
}

// A mark read stopped part way raises the read seq to the highest seq it
// marked, so the unread count follows what was done, and says so; before,
// the read seq was raised only at the end and stayed at 0. Stopped inside
// a request (after 2 of its 5 buckets) or between two (after the first
// request's 16 buckets of 20).
func TestInterruptedMarkReadRaisesTheReadSeqOfWhatItDid(t *testing.T) {
	const cid = "si_alice_bob"
	for _, c := range []struct {
		seqs, buckets int
		done          int64
	}{{500, 2, 200}, {2000, 16, 1600}} {
		t.Run(fmt.Sprintf("after %d buckets of %d", c.buckets, c.seqs/100), func(t *testing.T) {
			plain := seeded(t, cid, c.seqs, store.Options{})
			ctx, cancel := context.WithCancel(t.Context())
			s := store.New(&cancelAfter{Backend: plain.Backend(), n: c.buckets, cancel: cancel}, store.Options{})
			res, err := s.MarkRead(ctx, cid, seqRange(1, int64(c.seqs)), "bob")
			done := fmt.Sprintf("done for seq 1-%d only", c.done)
			raised := fmt.Sprintf("read seq raised to %d", c.done)
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), done) || !strings.Contains(err.Error(), raised) {
				t.Fatalf("interrupted mark read: %v; want it %s and the %s", err, done, raised)
			}
			if int64(len(res.Applied)) != c.done || len(res.Unknown) != 0 {
				t.Errorf("applied %d seqs, %d unknown; want %d and none", len(res.Applied), len(res.Unknown), c.done)
			}
			ws, err := plain.Windows(t.Context(), "bob", []string{cid}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if w := ws[cid]; w.ReadSeq != c.done || w.Unread() != int64(c.seqs)-c.done {
				t.Errorf("read seq %d, unread %d; want %d and %d", w.ReadSeq, w.Unread(), c.done, int64(c.seqs)-c.done)
			}
		})
	}
}

// A mark read stopped part way under a read seq already past what it
// marked (mina's 100006, seq 1-11200 done) said "read seq raised to
// 11200", in its error and audit line, when the read seq stayed 100006,
// rightly: it is never lowered. It says what the read seq is.
func TestInterruptedMarkReadSaysWhenTheReadSeqStays(t *testing.T) {
	const cid = "si_alice_bob"
	plain := seeded(t, cid, 2000, store.Options{})
	if err := plain.Backend().RaiseReadSeq(t.Context(), "bob", cid, 1900); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	s := store.New(&cancelAfter{Backend: plain.Backend(), n: 2, cancel: cancel}, store.Options{})
	_, err := s.MarkRead(ctx, cid, seqRange(1, 2000), "bob")
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "done for seq 1-200 only") {
		t.Fatalf("interrupted mark read: %v; want it done for seq 1-200 only", err)
	}
	if strings.Contains(err.Error(), "raised") || !strings.Contains(err.Error(), "read seq stays 1900") {
		t.Errorf("interrupted mark read: %v; want it to say the read seq stays 1900", err)
	}
	if got, err := plain.ReadSeqOf(t.Context(), "bob", cid); err != nil || got != 1900 {
		t.Errorf("read seq %d (%v), want 1900", got, err)
	}
}
