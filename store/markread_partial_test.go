package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
)

// cancelAfter cancels a write's context once n buckets were marked read,
// as Ctrl-C does between round trips.
type cancelAfter struct {
	store.Backend
	n      int
	cancel context.CancelFunc
}

func (b *cancelAfter) MarkSlotsRead(ctx context.Context, docID string, slots []int, reader string) (int, error) {
	ran, err := b.Backend.MarkSlotsRead(ctx, docID, slots, reader)
	if b.n--; b.n == 0 {
		b.cancel()
	}
	return ran, err
}

// A mark read stopped part way raises the read seq to the highest seq it
// marked, so the unread count follows what was done, and says so; before,
// the read seq was raised only at the end and stayed at 0.
func TestInterruptedMarkReadRaisesTheReadSeqOfWhatItDid(t *testing.T) {
	const cid = "si_alice_bob"
	plain := seeded(t, cid, 500, store.Options{})
	ctx, cancel := context.WithCancel(t.Context())
	s := store.New(&cancelAfter{Backend: plain.Backend(), n: 2, cancel: cancel}, store.Options{})
	seqs := make([]int64, 500)
	for i := range seqs {
		seqs[i] = int64(i + 1)
	}
	res, err := s.MarkRead(ctx, cid, seqs, "bob")
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "done for seq 1-200 only") || !strings.Contains(err.Error(), "read seq raised to 200") {
		t.Fatalf("interrupted mark read: %v; want it done for 1-200 and the read seq raised to 200", err)
	}
	if len(res.Applied) != 200 {
		t.Errorf("applied %d seqs, want 200", len(res.Applied))
	}
	ws, err := plain.Windows(t.Context(), "bob", []string{cid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := ws[cid]; w.ReadSeq != 200 || w.Unread() != 300 {
		t.Errorf("read seq %d, unread %d; want 200 and 300", w.ReadSeq, w.Unread())
	}
}
