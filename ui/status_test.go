package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// downCache is a cache layer whose every call fails, like a Redis that went away.
type downCache struct{}

func (downCache) Slots(context.Context, string, []int64) (map[int64]*bucket.Slot, error) {
	return nil, errBoom
}
func (downCache) Invalidate(context.Context, string, []int64) error { return errBoom }
func (downCache) MaxSeqs(context.Context, []string) (map[string]int64, error) {
	return nil, errBoom
}
func (downCache) ReadSeqs(context.Context, string, []string) (map[string]int64, error) {
	return nil, errBoom
}
func (downCache) ReadSeqsOf(context.Context, string, []string) (map[string]int64, error) {
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
	for _, want := range []string{"as alice", chatAB, "seq 120/120 · bucket 1", "round trips", "⚠ cache failing, reading the store: connection refused"} {
		if !strings.Contains(bar, want) {
			t.Errorf("status bar %q lacks %q", bar, want)
		}
	}
	if row := rowOf(d.m.View(), 120); !strings.Contains(row, "hello 120") {
		t.Error("a failing cache stopped the timeline from loading from the backend")
	}
}

// farCache fails the way a real Redis does: a long message naming the key
// and the address.
type farCache struct{ downCache }

var errFar = errors.New("redis redis://127.0.0.1:6390/0 read MSG_CACHE:si_alice_bob:120: dial tcp 127.0.0.1:6390: connect: connection refused")

func (farCache) Slots(context.Context, string, []int64) (map[int64]*bucket.Slot, error) {
	return nil, errFar
}
func (farCache) MaxSeqs(context.Context, []string) (map[string]int64, error) { return nil, errFar }
func (farCache) ReadSeqs(context.Context, string, []string) (map[string]int64, error) {
	return nil, errFar
}

// A long cache error must not push who is viewing what off the bar.
func TestCacheWarningLeavesTheViewerReadable(t *testing.T) {
	for _, width := range []int{80, 120} {
		st, tb := newTestStore(t, false)
		seedSmall(t, st)
		opts, _ := testOptions(t, "alice")
		d := newDriver(t, store.New(tb, store.Options{Cache: farCache{}}), opts, width, 30)
		d.open(chatAB)
		bar := strings.Split(d.m.View(), "\n")[28]
		for _, want := range []string{"as alice", chatAB, "⚠ cache"} {
			if !strings.Contains(bar, want) {
				t.Errorf("at width %d the status bar %q lacks %q", width, bar, want)
			}
		}
	}
}

// emptyCache answers every call and knows nothing: every seq is a miss.
type emptyCache struct{ downCache }

func (emptyCache) Slots(context.Context, string, []int64) (map[int64]*bucket.Slot, error) {
	return map[int64]*bucket.Slot{}, nil
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

// Issue 27, item 10: the status bar names the deployment (a context of the
// config file) first, so a narrow terminal still tells prod from staging.
func TestStatusBarNamesTheContext(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	named := store.New(tb, store.Options{Context: "prod-eu", ReadOnly: true})
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, named, opts, 60, 30)
	d.open(chatAB)
	bar := strings.Split(d.m.View(), "\n")[28]
	if !strings.HasPrefix(strings.TrimSpace(bar), "context prod-eu │ as alice │ read-only") {
		t.Errorf("status bar %q: want the context first, then the viewer", bar)
	}
}
