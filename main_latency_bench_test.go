package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
)

// BenchmarkUIOperationsAtLatency runs the latency bench's operations on
// the UI model (ui.Script over the demo's long group, a delay on every
// round trip), as `chatlens bench --latency` does, at 0, 40 and 80 ms; k is
// held for 1,000 rows at 1,000 keys a second (key repeat's 30 would take
// 33 s an iteration). Each operation reports its round trips ("rt-…") and
// milliseconds ("ms-…") as metrics; ns/op is the whole run.
//
//	go test -run '^$' -bench UIOperationsAtLatency -benchtime 1x -count 3 .
func BenchmarkUIOperationsAtLatency(b *testing.B) {
	ctx := context.Background()
	sc, err := bench.OpenScratch(ctx, bench.Target{TempDir: b.TempDir(), NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = sc.Close() })
	counter := bench.NewCounting(sc.Backend)
	st := store.New(counter, store.Options{})
	d, err := seedLatencyDemo(ctx, st)
	if err != nil {
		b.Fatal(err)
	}
	for _, lat := range []time.Duration{0, 40 * time.Millisecond, 80 * time.Millisecond} {
		b.Run(lat.String(), func(b *testing.B) {
			var ops []latencyOp
			for b.Loop() {
				if ops, err = d.run(ctx, st, counter, lat, holdPlan{rows: 1000, every: time.Millisecond}); err != nil {
					b.Fatal(err)
				}
			}
			for _, o := range ops {
				if o.Note != "" {
					b.Errorf("%s: %s", o.Name, o.Note)
				}
				name := metricName(o.Name)
				b.ReportMetric(float64(o.RoundTrips), "rt-"+name)
				b.ReportMetric(float64(o.Time.Microseconds())/1000, "ms-"+name)
			}
		})
	}
}

// metricName is an operation's name as a benchmark metric unit: its first
// three words, joined by dashes (units may hold no space).
func metricName(op string) string {
	words := strings.Fields(op)
	return strings.Join(words[:min(3, len(words))], "-")
}
