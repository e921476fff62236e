package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
)

// latencyRoundTrips are the round trips each operation of the latency
// bench makes on the demo (k held for 1,000 rows), at every latency: what
// the UI reached, against main's figures before (the limit: the column
// "limit"). An operation that makes more fails TestBenchLatencyRunsTheUIsOperations.
var latencyRoundTrips = map[string]int64{
	"open the conversation list":              10, // limit 7: 6, and the notification section's max seqs; +3 since the demo holds notifications: the windows of the viewer's n_* that hold any
	"open a conversation at its newest":       1,  // limit 1
	"hold k for 1000 rows at 1000 keys/s":     11, // 13 before; limit 10
	"250 k in one burst from 40050":           2,  // limit 2
	"search back 10,000 seqs, to the hit":     8,  // limit 8
	"  the rest of that scan, counting hits":  27, // 29 before; limit 25
	"inspector on a quote three buckets back": 12, // limit 3; 23 before: "told by" and the life read each notification bucket once, and no further back than the message (10 on a fresh store)
	"mark read of 10,000 seqs":                16, // 110 before; limit 15
	"switch the viewer":                       10, // 10 before; limit 6; +1: the new viewer's notification section; +3 since the demo holds notifications (as the list)
	"jump to a seq far back":                  1,  // limit 1
}

// TestBenchLatencyRunsTheUIsOperations: chatlens bench --latency drives the
// UI over the demo's long group and every operation ends where a user
// expects it (the newest message on open, 1,000 rows up after k held, the
// needle 10,000 seqs back, the next member after V, seq 100 after the
// jump), with round trips counted for each, none more than it made when
// last measured and none below its limit; held k, quicker than the reads
// here, loses no key.
func TestBenchLatencyRunsTheUIsOperations(t *testing.T) {
	t.Parallel()
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
	ops, err := latencyOps(ctx, st, counter, []time.Duration{0, time.Millisecond}, holdPlan{rows: 1000, every: time.Millisecond}, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2*10 {
		t.Fatalf("%d operations measured, want 10 at each of 2 latencies", len(ops))
	}
	// The search goes on scanning behind the cursor once it lands, so a
	// round trip of that scan may end before or after the landing is
	// counted (under the race detector it has): the two rows are held to
	// their sum, each still to its limit.
	const landing, rest = "search back 10,000 seqs, to the hit", "  the rest of that scan, counting hits"
	searchTrips := map[time.Duration]int64{}
	for _, o := range ops {
		if o.Note != "" {
			t.Errorf("%s at %s: %s", o.Name, o.Latency, o.Note)
		}
		want, ok := latencyRoundTrips[o.Name]
		if o.Name == landing || o.Name == rest {
			searchTrips[o.Latency] += o.RoundTrips
			want = latencyRoundTrips[landing] + latencyRoundTrips[rest] // the sum is checked below
		}
		switch {
		case !ok:
			t.Errorf("%s at %s: no figure to hold it to", o.Name, o.Latency)
		case o.RoundTrips > want:
			t.Errorf("%s at %s: %d round trips, want at most %d", o.Name, o.Latency, o.RoundTrips, want)
		case o.RoundTrips < o.Limit:
			t.Errorf("%s at %s: %d round trips, below its limit %d: the limit is wrong", o.Name, o.Latency, o.RoundTrips, o.Limit)
		}
	}
	for lat, n := range searchTrips {
		if want := latencyRoundTrips[landing] + latencyRoundTrips[rest]; n > want {
			t.Errorf("the search at %s: %d round trips to the hit and after, want at most %d", lat, n, want)
		}
	}
	var out strings.Builder
	if err := writeLatencyTable(&out, sc.Describe, ops); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hold k for 1000 rows", "search back 10,000 seqs", "mark read of 10,000 seqs", "1ms"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table has no %q:\n%s", want, out.String())
		}
	}
}
