package bench

import (
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
)

// Counting wraps a store.Backend and counts what crosses the wire: its
// round trips, counted by store.Counter, and every msg document returned
// as one document read of len(raw) bytes.
type Counting struct {
	*store.Counter
	documents atomic.Int64
	bytes     atomic.Int64
	latency   atomic.Int64 // a delay added to every round trip, in nanoseconds
}

// NewCounting wraps inner.
func NewCounting(inner store.Backend) *Counting {
	c := &Counting{}
	c.Counter = store.NewCounter(inner, store.Watch{Trip: c.wait, Read: c.read})
	return c
}

// Counts is a snapshot of the counters.
type Counts struct {
	RoundTrips, Documents, Bytes int64
}

// Counts returns the counters so far.
func (c *Counting) Counts() Counts {
	return Counts{c.Counter.RoundTrips(), c.documents.Load(), c.bytes.Load()}
}

// Sub is the difference a-b: what happened between two snapshots.
func (a Counts) Sub(b Counts) Counts {
	return Counts{a.RoundTrips - b.RoundTrips, a.Documents - b.Documents, a.Bytes - b.Bytes}
}

// SetLatency adds d to every round trip from now on: a MongoDB reached over
// a VPN or across regions, where time is round trips times the latency.
func (c *Counting) SetLatency(d time.Duration) { c.latency.Store(int64(d)) }

// wait is the latency, before each round trip.
func (c *Counting) wait() {
	if d := time.Duration(c.latency.Load()); d > 0 {
		time.Sleep(d)
	}
}

func (c *Counting) read(raw bson.Raw) {
	c.documents.Add(1)
	c.bytes.Add(int64(len(raw)))
}

var _ store.Backend = (*Counting)(nil)
