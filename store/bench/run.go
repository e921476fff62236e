package bench

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// Run writes the same conversation in both layouts on target, measures each
// scenario on both, reports progress through progress (may be nil) and
// removes everything it created before returning. When only that cleanup
// fails, the Result comes back together with the error saying what is left.
func Run(ctx context.Context, target Target, opts Options, progress func(stage string, done, total int)) (res *Result, err error) {
	opts, err = opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if progress == nil {
		progress = func(string, int, int) {}
	}
	var s *session
	if target.MongoURI != "" {
		s, err = openMongo(ctx, target, opts)
	} else {
		s, err = openEmbedded(target, opts)
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := s.cleanup(); cerr != nil {
			err = errors.Join(err, cerr)
		}
	}()
	res = &Result{Target: s.describe, Messages: opts.Messages, Conversation: opts.Conversation,
		Seed: opts.Seed, BatchSize: opts.BatchSize, RandomReads: opts.RandomReads, NoSync: target.NoSync && target.MongoURI == "",
		BucketSize: opts.BucketSize, BucketLayout: bucketLayoutName(opts.BucketSize)}
	if err := runAll(ctx, s, opts, res, progress); err != nil {
		return nil, err
	}
	res.SlotReads = "bench-only layout: whole documents read by doc_id, only the slots asked for decoded"
	if bl, ok := s.buckets.(*bucketLayout); ok {
		res.SlotReads = bl.counter.SlotReads().String()
	}
	res.Ratios = ratios(res.Buckets, res.Flat)
	return res, nil
}

// runAll writes both layouts, then runs every read scenario on each.
func runAll(ctx context.Context, s *session, opts Options, res *Result, progress func(string, int, int)) error {
	both := []struct {
		l   layout
		out *Layout
	}{{s.buckets, &res.Buckets}, {s.flat, &res.Flat}}

	if err := writeBoth(ctx, s, opts, res, progress); err != nil {
		return err
	}
	for i, b := range both {
		progress("measuring storage", i, len(both))
		st, err := b.l.storage(ctx)
		if err != nil {
			return fmt.Errorf("bench: storage figures: %w", err)
		}
		b.out.Storage = st
	}
	progress("measuring storage", len(both), len(both))

	n := int64(opts.Messages)
	res.Range100 = consecutive(n, 100)
	res.Range1000 = consecutive(n, 1000)
	randomSeqs := randomSeqs(opts.Seed, n, opts.RandomReads)
	for _, sc := range []struct {
		stage string
		out   func(*Layout) *Measure
		run   func(l layout, step func(int)) (got, want int, err error)
		total int
	}{
		{"newest page of 20", func(l *Layout) *Measure { return &l.Reads.Newest20 }, rangeRun(ctx, [2]int64{max(1, n-19), n}), 1},
		{"100 consecutive", func(l *Layout) *Measure { return &l.Reads.Range100 }, rangeRun(ctx, res.Range100), 1},
		{"1,000 consecutive", func(l *Layout) *Measure { return &l.Reads.Range1000 }, rangeRun(ctx, res.Range1000), 1},
		{count(int64(opts.RandomReads)) + " random single reads", func(l *Layout) *Measure { return &l.Reads.RandomSingle }, singlesRun(ctx, randomSeqs), len(randomSeqs)},
		{"full scroll", func(l *Layout) *Measure { return &l.Reads.FullScroll }, scrollRun(ctx, n), opts.Messages},
	} {
		for _, b := range both {
			stage := sc.stage + " (" + layoutName(b.l) + ")"
			progress(stage, 0, sc.total)
			m, err := measure(b.l, func() (int, int, error) {
				return sc.run(b.l, func(done int) { progress(stage, done, sc.total) })
			})
			if err != nil {
				return fmt.Errorf("bench: %s: %w", stage, err)
			}
			*sc.out(b.out) = m
			progress(stage, sc.total, sc.total)
		}
	}
	return nil
}

// writeBoth writes the conversation batch by batch into both layouts, the
// same generated messages for each, timing only the writes.
func writeBoth(ctx context.Context, s *session, opts Options, res *Result, progress func(string, int, int)) error {
	var bucketTime, flatTime time.Duration
	b0, f0 := s.buckets.counts(), s.flat.counts()
	for first := 1; first <= opts.Messages; first += opts.BatchSize {
		if err := ctx.Err(); err != nil {
			return err
		}
		n := min(opts.BatchSize, opts.Messages-first+1)
		msgs := messages(opts.Seed, opts.Conversation, int64(first), n)
		t := time.Now()
		if err := s.buckets.write(ctx, int64(first), msgs); err != nil {
			return fmt.Errorf("bench: writing buckets at seq %d: %w", first, err)
		}
		bucketTime += time.Since(t)
		t = time.Now()
		if err := s.flat.write(ctx, int64(first), msgs); err != nil {
			return fmt.Errorf("bench: writing flat documents at seq %d: %w", first, err)
		}
		flatTime += time.Since(t)
		progress("writing both layouts", first+n-1, opts.Messages)
	}
	res.Buckets.Write = writeFigures(opts.Messages, s.buckets.counts().Sub(b0), bucketTime)
	res.Flat.Write = writeFigures(opts.Messages, s.flat.counts().Sub(f0), flatTime)
	return nil
}

func writeFigures(msgs int, c Counts, d time.Duration) Write {
	w := Write{RoundTrips: c.RoundTrips, Seconds: d.Seconds()}
	if d > 0 {
		w.MessagesPerSec = float64(msgs) / d.Seconds()
	}
	return w
}

// measure times run and takes the counters' difference around it. A read
// that returned a different number of messages than asked is an error: its
// figures would describe some other work.
func measure(l layout, run func() (got, want int, err error)) (Measure, error) {
	before := l.counts()
	t := time.Now()
	got, want, err := run()
	elapsed := time.Since(t)
	if err != nil {
		return Measure{}, err
	}
	if got != want {
		return Measure{}, fmt.Errorf("read %d messages, expected %d", got, want)
	}
	d := l.counts().Sub(before)
	return Measure{RoundTrips: d.RoundTrips, Documents: d.Documents, Bytes: d.Bytes, Seconds: elapsed.Seconds()}, nil
}

func rangeRun(ctx context.Context, r [2]int64) func(layout, func(int)) (int, int, error) {
	return func(l layout, _ func(int)) (int, int, error) {
		got, err := l.read(ctx, r[0], r[1])
		return got, int(r[1] - r[0] + 1), err
	}
}

func singlesRun(ctx context.Context, seqs []int64) func(layout, func(int)) (int, int, error) {
	return func(l layout, step func(int)) (int, int, error) {
		got := 0
		for i, seq := range seqs {
			if err := ctx.Err(); err != nil {
				return got, len(seqs), err
			}
			n, err := l.read(ctx, seq, seq)
			if err != nil {
				return got, len(seqs), err
			}
			got += n
			if (i+1)%100 == 0 {
				step(i + 1)
			}
		}
		return got, len(seqs), nil
	}
}

func scrollRun(ctx context.Context, n int64) func(layout, func(int)) (int, int, error) {
	return func(l layout, step func(int)) (int, int, error) {
		got, err := l.scroll(ctx, n, step)
		return got, int(n), err
	}
}

// consecutive is the range of count seqs ending 50 below the newest, so it
// starts and ends inside buckets, as a reader's range usually does; a short
// conversation gives its first count seqs.
func consecutive(n, count int64) [2]int64 {
	to := n - 50
	from := to - count + 1
	if from < 1 {
		return [2]int64{1, min(count, n)}
	}
	return [2]int64{from, to}
}

// randomSeqs draws count seqs uniformly from 1..n, the same for each layout.
func randomSeqs(seed, n int64, count int) []int64 {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	out := make([]int64, count)
	for i := range out {
		out[i] = 1 + rng.Int64N(n)
	}
	return out
}

func layoutName(l layout) string {
	if _, ok := l.(*flatLayout); ok {
		return "flat"
	}
	return "buckets"
}

// bucketLayoutName says which bucket layout a size runs on.
func bucketLayoutName(size int) string {
	if size == bucket.BucketSize {
		return "the store's own (100 slots, state machine writes)"
	}
	return fmt.Sprintf("bench-only (%d slots per document, one insert per whole bucket)", size)
}
