package main

import (
	"context"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
)

// TestBenchHeavyList: bench --latency lists a user in hundreds of
// conversations as the UI does: its first screen in 7 round trips however
// many there are, reading a fraction of the bytes the windows read with
// every newest bucket whole (4 round trips, as the list read them before),
// and the names of the rows below it in 2 more.
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
	if len(ops) != 3 {
		t.Fatalf("%d operations, want 3", len(ops))
	}
	first, named, whole := ops[0], ops[1], ops[2]
	for _, o := range ops {
		if o.Note != "" || o.RoundTrips != o.Limit {
			t.Errorf("%s: %d round trips (limit %d) %s", o.Name, o.RoundTrips, o.Limit, o.Note)
		}
	}
	t.Logf("%s: %d bytes; %s: %d bytes; %s: %d bytes", first.Name, first.Bytes, named.Name, named.Bytes, whole.Name, whole.Bytes)
	if first.Bytes <= 0 || named.Bytes*3 > whole.Bytes {
		t.Errorf("the list read %d bytes, the windows with whole buckets %d: want under a third", named.Bytes, whole.Bytes)
	}
	if first.Bytes >= named.Bytes {
		t.Errorf("the first screen read %d bytes, the whole list %d: the names below it came before it", first.Bytes, named.Bytes)
	}
}
