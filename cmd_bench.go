package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/chatlens/chatlens/store/bench"
)

type benchCmd struct {
	Messages   int   `name:"messages" default:"${bench_messages}" help:"Messages in the benchmark conversation."`
	Batch      int   `name:"batch" default:"${bench_batch}" help:"Messages per write."`
	BucketSize int   `name:"bucket-size" default:"${bucket_size}" help:"Slots per bucket document (not ${bucket_size}: a bench-only layout)."`
	Seed       int64 `name:"seed" default:"0" help:"Random seed of the generated messages."`
	NoSync     bool  `name:"no-sync" help:"Embedded store: skip fsync per write."`
	JSON       bool  `name:"json" help:"Print one JSON object instead of the table."`
	// Latency runs the UI's operations instead, at each delay given.
	Latency []time.Duration `name:"latency" sep:"," help:"Run the UI's operations on the demo's 50,000-message group with this delay added to every round trip (several: 0s,40ms,80ms), instead of the layouts."`
}

func (benchCmd) Help() string {
	return `Writes and reads the same messages in the bucket layout and in one document per message, side by
side, in scratch stores it removes afterwards: the embedded store, or a scratch database on the
MongoDB of --mongo-uri. The configured store is never touched.

Examples:

    chatlens bench
    chatlens bench --messages 250 --no-sync --json
    chatlens bench --latency 0s,40ms,80ms
    chatlens bench --mongo-uri mongodb://localhost:27017 --bucket-size 1000`
}

func (c *benchCmd) Validate() error {
	switch {
	case slices.ContainsFunc(c.Latency, func(d time.Duration) bool { return d < 0 || d > time.Minute }):
		return errors.New("--latency must be 0s to 1m a round trip")
	case c.Messages < 1 || c.Batch < 1:
		return errors.New("--messages and --batch must be at least 1")
	case c.Messages > bench.MaxMessages:
		return fmt.Errorf("--messages is at most %d (each message is written twice: about 3 KB of scratch space)", bench.MaxMessages)
	case c.BucketSize < 1 || c.BucketSize > bench.MaxBucketSize():
		return fmt.Errorf("--bucket-size must be 1 to %d (a bucket of the largest messages must stay under MongoDB's 16 MiB)", bench.MaxBucketSize())
	}
	return nil
}

// Run measures both layouts on the embedded store, or on the MongoDB of
// --mongo-uri in a scratch database it drops afterwards.
func (c *benchCmd) Run(ctx context.Context, s *session) error {
	if len(c.Latency) > 0 {
		return c.runLatency(ctx, s)
	}
	target := bench.Target{MongoURI: s.conn.MongoURI, NoSync: c.NoSync}
	step, end := progressPrinter(s.stderr, "bench", false)
	stage := ""
	res, err := bench.Run(ctx, target, bench.Options{Messages: c.Messages, Seed: c.Seed, BatchSize: c.Batch,
		BucketSize: c.BucketSize},
		func(name string, done, total int) {
			if name != stage {
				end()
				stage = name
				fmt.Fprintln(s.stderr, "chatlens: bench: "+name)
			}
			step(done, total)
		})
	end()
	if errors.Is(err, context.Canceled) && res == nil {
		return fmt.Errorf("bench: interrupted: %w", err) // a cleanup that failed says what is left
	}
	if res == nil {
		return err
	}
	if c.JSON {
		enc := json.NewEncoder(s.stdout)
		enc.SetIndent("", "  ")
		if jerr := enc.Encode(res); jerr != nil {
			return jerr
		}
	} else if werr := res.WriteTable(s.stdout); werr != nil {
		return werr
	}
	return err // a cleanup failure after a complete run
}
