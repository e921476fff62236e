package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
)

// downCache is a cache layer whose every call fails, like a Redis that went away.
type downCache struct{}

func (downCache) Slots(context.Context, string, []int64) (map[int64]*store.Slot, error) {
	return nil, errBoom
}
func (downCache) Invalidate(context.Context, string, []int64) error { return errBoom }
func (downCache) MaxSeqs(context.Context, []string) (map[string]int64, error) {
	return nil, errBoom
}
func (downCache) ReadSeqs(context.Context, string, []string) (map[string]int64, error) {
	return nil, errBoom
}
func (downCache) RaiseReadSeq(context.Context, string, string, int64) error { return errBoom }
func (downCache) Describe() string                                          { return "redis test:6379" }
func (downCache) Close() error                                              { return nil }

func TestStatusBarWarnsWhenTheCacheFails(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	withCache := store.New(tb, store.Options{Cache: downCache{}})
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, withCache, opts, 160, 30)
	d.open(chatAB)
	bar := strings.Split(d.m.View(), "\n")[28]
	for _, want := range []string{"as alice", chatAB, "seq 120/120 · bucket 1", "round trips", "⚠ cache: connection refused"} {
		if !strings.Contains(bar, want) {
			t.Errorf("status bar %q lacks %q", bar, want)
		}
	}
	if row := rowOf(d.m.View(), 120); !strings.Contains(row, "hello 120") {
		t.Error("a failing cache stopped the timeline from loading from the backend")
	}
}

// emptyCache answers every call and knows nothing: every seq is a miss.
type emptyCache struct{ downCache }

func (emptyCache) Slots(context.Context, string, []int64) (map[int64]*store.Slot, error) {
	return map[int64]*store.Slot{}, nil
}
func (emptyCache) Invalidate(context.Context, string, []int64) error { return nil }
func (emptyCache) MaxSeqs(context.Context, []string) (map[string]int64, error) {
	return map[string]int64{}, nil
}
func (emptyCache) ReadSeqs(context.Context, string, []string) (map[string]int64, error) {
	return map[string]int64{}, nil
}

func TestStatusBarCountsCacheHitsAndMisses(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, store.New(tb, store.Options{Cache: emptyCache{}}), opts, 160, 30)
	d.open(chatAB)
	bar := strings.Split(d.m.View(), "\n")[28]
	if !strings.Contains(bar, "cache 0 hits") || !strings.Contains(bar, "misses in") {
		t.Errorf("status bar %q does not count cache hits and misses", bar)
	}
	if strings.Contains(bar, "⚠") {
		t.Errorf("a cache that answers is reported as failing: %q", bar)
	}
}
