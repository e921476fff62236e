package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
)

// TestBenchLatencyRunsTheUIsOperations: chatlens bench --latency drives the
// UI over the demo's long group and every operation ends where a user
// expects it (the newest message on open, 150 rows up after k held, the
// needle 10,000 seqs back, seq 100 after the jump), with round trips
// counted for each; held k, quicker than the reads here, loses no key.
func TestBenchLatencyRunsTheUIsOperations(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds the demo")
	}
	ctx := context.Background()
	sc, err := bench.OpenScratch(ctx, bench.Target{TempDir: t.TempDir(), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sc.Close() }()
	counter := bench.NewCounting(sc.Backend)
	st := store.New(counter, store.Options{})
	ops, err := latencyOps(ctx, st, counter, []time.Duration{0, time.Millisecond}, holdPlan{rows: 150, every: time.Millisecond}, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2*10 {
		t.Fatalf("%d operations measured, want 10 at each of 2 latencies", len(ops))
	}
	for _, o := range ops {
		if o.Note != "" {
			t.Errorf("%s at %s: %s", o.Name, o.Latency, o.Note)
		}
		if o.RoundTrips == 0 && !strings.HasPrefix(o.Name, "inspector") {
			t.Errorf("%s at %s counted no round trip", o.Name, o.Latency)
		}
	}
	var out strings.Builder
	if err := writeLatencyTable(&out, sc.Describe, ops); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hold k for 150 rows", "search back 10,000 seqs", "mark read of 10,000 seqs", "1ms"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table has no %q:\n%s", want, out.String())
		}
	}
}
