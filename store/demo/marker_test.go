package demo

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
)

func emptyStore(t *testing.T) *store.Store {
	t.Helper()
	b, err := embedded.Open(filepath.Join(t.TempDir(), "demo.db"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(b, store.Options{})
	t.Cleanup(func() { _ = st.Close(context.Background()) })
	return st
}

// A seed stops soon after its context ends (Ctrl-C), says so through the
// error, and leaves the rest of the dataset unwritten.
func TestSeedStopsWhenTheContextEnds(t *testing.T) {
	st := emptyStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	_, err := Seed(ctx, st, tiny, func(done, total int) {
		calls++
		if calls == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Seed after cancel: %v, want context.Canceled", err)
	}
	if calls > 2 {
		t.Errorf("%d more batches written after the cancel", calls-2)
	}
	ws, err := st.Windows(context.Background(), "alice", []string{LongGroupID}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ws[LongGroupID].MaxSeq != 0 {
		t.Errorf("the long group was written (max seq %d) after the cancel", ws[LongGroupID].MaxSeq)
	}
}

func TestSeedProgressFollowsTheMarkers(t *testing.T) {
	ctx := context.Background()
	st := emptyStore(t)
	want := func(step string, p Progress) {
		t.Helper()
		got, err := SeedProgress(ctx, st.Backend())
		if err != nil || got != p {
			t.Errorf("%s: progress %d (%v), want %d", step, got, err, p)
		}
	}
	want("no marker", NotSeeded)
	if err := MarkStarted(ctx, st.Backend(), 9); err != nil {
		t.Fatal(err)
	}
	want("started", Started)
	if err := MarkComplete(ctx, st.Backend(), 9); err != nil {
		t.Fatal(err)
	}
	want("complete", Complete)
	if holds, err := store.HoldsAny(ctx, st.Backend(), bucket.CollMsg); err != nil || holds {
		t.Errorf("the markers count as messages: holds a message %v, %v", holds, err)
	}
}

// Adopt turns only an unfinished demo into the user's store; a finished
// demo and a store without a marker stay as they are.
func TestAdoptClaimsOnlyAnUnfinishedDemo(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		mark  func(store.Backend) error
		after Progress
	}{
		{"no marker", func(store.Backend) error { return nil }, NotSeeded},
		{"started", func(b store.Backend) error { return MarkStarted(ctx, b, 1) }, Adopted},
		{"complete", func(b store.Backend) error { return MarkComplete(ctx, b, 1) }, Complete},
	} {
		st := emptyStore(t)
		if err := c.mark(st.Backend()); err != nil {
			t.Fatal(err)
		}
		if err := Adopt(ctx, st.Backend()); err != nil {
			t.Fatal(err)
		}
		if got, err := SeedProgress(ctx, st.Backend()); err != nil || got != c.after {
			t.Errorf("%s, adopted: progress %d (%v), want %d", c.name, got, err, c.after)
		}
	}
}
