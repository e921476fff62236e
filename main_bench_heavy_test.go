package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
)

// TestBenchHeavyList: bench --latency lists a user in hundreds of
// conversations as the UI does: its first screen in 7 round trips however
// many there are, reading a fraction of the bytes the windows read with
// every newest bucket whole (4 round trips, as the list read them before),
// and the names of the rows below it in 2 more.
func TestBenchHeavyList(t *testing.T) {
	t.Parallel()
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

// slowEngine stands in for an engine that gives no answer within the
// request timeout to a request of more than most documents (FerretDB v2 +
// DocumentDB to an upsert of 1,000 buckets).
// It serves store.RawDocs's InsertRaw; every other call goes to the
// Backend it wraps.
type slowEngine struct {
	store.Backend
	most int
}

func (e slowEngine) InsertRaw(ctx context.Context, coll string, docs []bson.Raw, mode store.RawMode) (store.RawResult, error) {
	if len(docs) > e.most {
		return store.RawResult{}, fmt.Errorf("import %s: no answer within 15s (server slow or unreachable): %w", coll, context.DeadlineExceeded)
	}
	return e.Backend.InsertRaw(ctx, coll, docs, mode)
}

// TestBenchHeavyUserSeededInRequestsAnsweredInTime: bench --latency seeds
// the heavy user in requests an engine answering 200 documents a request
// in time answers (it sent all 300 buckets in one, and stopped at "seeding
// the heavy user: import msg: no answer within 15s").
func TestBenchHeavyUserSeededInRequestsAnsweredInTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sc, err := bench.OpenScratch(ctx, bench.Target{TempDir: t.TempDir(), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sc.Close() }()
	counter := bench.NewCounting(slowEngine{Backend: sc.Backend, most: 200})
	st := store.New(counter, store.Options{})
	ops, err := heavyListOps(ctx, st, counter, bytesReadOf(sc.Backend), []time.Duration{0}, 300, func(string) {})
	if err != nil || len(ops) != 3 {
		t.Fatalf("%d operations: %v", len(ops), err)
	}
}

// TestBenchLatencyPrintsWhatItMeasuredBeforeAFailure: when a later step of
// bench --latency fails (the heavy user's seed on a slow engine), the
// operations the steps before it measured are printed, table and JSON,
// and the failure returned (it printed none of them).
func TestBenchLatencyPrintsWhatItMeasuredBeforeAFailure(t *testing.T) {
	t.Parallel()
	for _, asJSON := range []bool{false, true} {
		var stdout, stderr strings.Builder
		s := &session{process: testProcess(strings.NewReader(""), &stdout, &stderr), conn: &connection{}, given: map[string]bool{}}
		c := &benchCmd{Latency: []time.Duration{0}, JSON: asJSON}
		failed := errors.New("bench: seeding the heavy user: import msg: no answer within 15s")
		err := c.measureLatency(context.Background(), s, func(st *store.Store, counter *bench.Counting, traffic func() int64, say func(string)) []latencyStep {
			return []latencyStep{
				func() ([]latencyOp, error) {
					return heavyListOps(context.Background(), st, counter, traffic, c.Latency, 50, say)
				},
				func() ([]latencyOp, error) { return nil, failed },
			}
		})
		if !errors.Is(err, failed) {
			t.Errorf("returned %v, want the later step's failure", err)
		}
		for _, want := range []string{"list of 50 conversations: its first screen", "its windows, every newest bucket whole"} {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("json %v: %q not printed:\n%s", asJSON, want, stdout.String())
			}
		}
		if asJSON && !json.Valid([]byte(stdout.String())) {
			t.Errorf("not JSON:\n%s", stdout.String())
		}
		if !strings.Contains(stderr.String(), "measured before this failed") {
			t.Errorf("stderr does not say the operations came before the failure:\n%s", stderr.String())
		}
	}
}
