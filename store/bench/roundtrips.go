package bench

import (
	"context"
	"sync"
	"sync/atomic"

	"go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
)

// The comparison layouts (flat, wide) are not store backends, so Counting
// cannot wrap them; their round trips are counted where they leave the
// process instead: each bbolt transaction, or each command MongoDB's driver
// sends (a cursor's getMore included), never by the layouts' own code.

// countedBolt is a bbolt file whose every transaction is one round trip.
type countedBolt struct {
	*bbolt.DB
	trips atomic.Int64
}

func (c *countedBolt) View(fn func(*bbolt.Tx) error) error {
	c.trips.Add(1)
	return c.DB.View(fn)
}

func (c *countedBolt) Update(fn func(*bbolt.Tx) error) error {
	c.trips.Add(1)
	return c.DB.Update(fn)
}

// RoundTrips is the number of transactions so far.
func (c *countedBolt) RoundTrips() int64 { return c.trips.Load() }

// commandsSent counts the commands a MongoDB client sends, by the
// collection each names, as the driver reports them starting.
type commandsSent struct {
	mu     sync.Mutex
	byColl map[string]int64
}

func newCommandsSent() *commandsSent { return &commandsSent{byColl: map[string]int64{}} }

// monitor is the driver hook that counts.
func (c *commandsSent) monitor() *event.CommandMonitor {
	return &event.CommandMonitor{Started: func(_ context.Context, e *event.CommandStartedEvent) {
		coll := commandCollection(e.CommandName, e.Command)
		c.mu.Lock()
		c.byColl[coll]++
		c.mu.Unlock()
	}}
}

// to is the number of commands sent to coll so far.
func (c *commandsSent) to(coll string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byColl[coll]
}

// commandCollection is the collection a command acts on: the value of its
// first field (find, insert, …), or for a getMore its "collection" field.
func commandCollection(name string, cmd bson.Raw) string {
	field := name
	if name == "getMore" {
		field = "collection"
	}
	coll, _ := cmd.Lookup(field).StringValueOK()
	return coll
}

// received counts the documents and bytes a comparison layout read, from
// what its store returned.
type received struct{ documents, bytes atomic.Int64 }

func (r *received) add(raws []bson.Raw) {
	for _, raw := range raws {
		r.documents.Add(1)
		r.bytes.Add(int64(len(raw)))
	}
}

// counts joins the store's round trips to what was received.
func (r *received) counts(roundTrips int64) Counts {
	return Counts{roundTrips, r.documents.Load(), r.bytes.Load()}
}
