package main

import (
	"context"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
)

// TestBenchHeavyList: bench --latency lists a user in hundreds of
// conversations as the UI does, in 7 round trips however many there are,
// reading a fraction of the bytes the windows read with every newest
// bucket whole (4 round trips, as the list read them before).
func TestBenchHeavyList(t *testing.T) {
	ctx := context.Background()
	sc, err := bench.OpenScratch(ctx, bench.Target{TempDir: t.TempDir(), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sc.Close() }()
	counter := bench.NewCounting(sc.Backend)
	st := store.New(counter, store.Options{})
	ops, err := heavyListOps(ctx, st, counter, bytesReadOf(sc.Backend), []time.Duration{0}, 300, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 {
		t.Fatalf("%d operations, want 2", len(ops))
	}
	list, whole := ops[0], ops[1]
	for _, o := range ops {
		if o.Note != "" || o.RoundTrips != o.Limit {
			t.Errorf("%s: %d round trips (limit %d) %s", o.Name, o.RoundTrips, o.Limit, o.Note)
		}
	}
	t.Logf("%s: %d bytes; %s: %d bytes", list.Name, list.Bytes, whole.Name, whole.Bytes)
	if list.Bytes <= 0 || list.Bytes*3 > whole.Bytes {
		t.Errorf("the list read %d bytes, the windows with whole buckets %d: want under a third", list.Bytes, whole.Bytes)
	}
}
