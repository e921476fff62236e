// Package uitest holds what the UI's tests share: a counting backend, the
// small seeded store most tests open, message builders, and readers of a
// drawn screen. Only tests import it.
package uitest

import (
	"context"
	"maps"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/testkit"
)

// Backend wraps the embedded backend: a fixed name for goldens, a count
// of how often each bucket is read, and a switch to make reads fail.
type Backend struct {
	store.Backend
	mu       sync.Mutex
	reads    map[string]int // any read of a bucket, whole or some slots
	whole    map[string]int // FindBuckets: the whole bucket
	slots    map[string]int // FindSlots: the slots each read asked for, summed
	failRead error
}

// NewBackend counts the reads of b.
func NewBackend(b store.Backend) *Backend {
	return &Backend{Backend: b, reads: map[string]int{}, whole: map[string]int{}, slots: map[string]int{}}
}

func (b *Backend) Describe() string { return "embedded test.db" }

func (b *Backend) FindBuckets(ctx context.Context, ids []string) ([]bson.Raw, error) {
	b.mu.Lock()
	fail := b.failRead
	for _, id := range ids {
		b.reads[id]++
		b.whole[id]++
	}
	b.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	return b.Backend.FindBuckets(ctx, ids)
}

// FindSlots counts a read of some slots of a bucket as a read of it.
func (b *Backend) FindSlots(ctx context.Context, id string, first, n int) (bson.Raw, bool, error) {
	b.mu.Lock()
	fail := b.failRead
	b.reads[id]++
	b.slots[id] += n
	b.mu.Unlock()
	if fail != nil {
		return nil, false, fail
	}
	return b.Backend.FindSlots(ctx, id, first, n)
}

// FindSlotRanges counts each range as FindSlots counts its read.
func (b *Backend) FindSlotRanges(ctx context.Context, ranges []store.SlotRange) ([]store.SlotRead, error) {
	b.mu.Lock()
	fail := b.failRead
	for _, r := range ranges {
		b.reads[r.DocID]++
		b.slots[r.DocID] += r.N
	}
	b.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	return b.Backend.FindSlotRanges(ctx, ranges)
}

// ResetReads returns the reads of each bucket, by doc id, since the last
// reset, and starts counting again.
func (b *Backend) ResetReads() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	old := b.reads
	b.reads, b.whole, b.slots = map[string]int{}, map[string]int{}, map[string]int{}
	return old
}

// ReadKinds is what was read since the last reset: whole buckets and slots
// (how many each bucket was asked for), by doc id.
func (b *Backend) ReadKinds() (whole, slots map[string]int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return maps.Clone(b.whole), maps.Clone(b.slots)
}

// SetFail makes every read fail with err (nil: reads work again).
func (b *Backend) SetFail(err error) {
	b.mu.Lock()
	b.failRead = err
	b.mu.Unlock()
}

// NewStore is a store on a fresh embedded file, through a counting Backend.
func NewStore(t testing.TB, readOnly bool) (*store.Store, *Backend) {
	t.Helper()
	tb := NewBackend(testkit.TempBackend(t))
	st := store.New(tb, store.Options{})
	t.Cleanup(func() { _ = st.Close(context.Background()) })
	if err := tb.EnsureIndexes(context.Background()); err != nil {
		t.Fatal(err)
	}
	if readOnly {
		return store.New(tb, store.Options{ReadOnly: true}), tb
	}
	return st, tb
}

// Insert stores docs in coll as they are.
func Insert(t testing.TB, st *store.Store, coll string, docs ...any) {
	t.Helper()
	testkit.InsertInto(t, st, coll, docs...)
}
