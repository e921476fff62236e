package bench

import (
	"context"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// Counting wraps a store.Backend and counts what crosses the wire: every
// method call is one round trip (the Backend contract), and every msg
// document returned is one document read of len(raw) bytes.
type Counting struct {
	inner      store.Backend
	roundTrips atomic.Int64
	documents  atomic.Int64
	bytes      atomic.Int64
	latency    atomic.Int64 // a delay added to every round trip, in nanoseconds
}

// NewCounting wraps inner.
func NewCounting(inner store.Backend) *Counting { return &Counting{inner: inner} }

// Counts is a snapshot of the counters.
type Counts struct {
	RoundTrips, Documents, Bytes int64
}

// Counts returns the counters so far.
func (c *Counting) Counts() Counts {
	return Counts{c.roundTrips.Load(), c.documents.Load(), c.bytes.Load()}
}

// Sub is the difference a-b: what happened between two snapshots.
func (a Counts) Sub(b Counts) Counts {
	return Counts{a.RoundTrips - b.RoundTrips, a.Documents - b.Documents, a.Bytes - b.Bytes}
}

// SetLatency adds d to every round trip from now on: a MongoDB reached over
// a VPN or across regions, where time is round trips times the latency.
func (c *Counting) SetLatency(d time.Duration) { c.latency.Store(int64(d)) }

func (c *Counting) trip() {
	c.roundTrips.Add(1)
	if d := time.Duration(c.latency.Load()); d > 0 {
		time.Sleep(d)
	}
}

func (c *Counting) read(raws []bson.Raw) {
	c.documents.Add(int64(len(raws)))
	for _, r := range raws {
		c.bytes.Add(int64(len(r)))
	}
}

func (c *Counting) FindBuckets(ctx context.Context, docIDs []string) ([]bson.Raw, error) {
	c.trip()
	raws, err := c.inner.FindBuckets(ctx, docIDs)
	c.read(raws)
	return raws, err
}

func (c *Counting) BucketIDs(ctx context.Context, cid string) ([]string, error) {
	c.trip()
	return c.inner.BucketIDs(ctx, cid)
}

func (c *Counting) FindMsgDocIDs(ctx context.Context, cid, field, value string) ([]string, error) {
	c.trip()
	return c.inner.FindMsgDocIDs(ctx, cid, field, value)
}

func (c *Counting) NextConversationID(ctx context.Context, after string) (string, bool, error) {
	c.trip()
	return c.inner.NextConversationID(ctx, after)
}

func (c *Counting) SetSlotField(ctx context.Context, docID string, slot int, field string, value any) (bool, error) {
	c.trip()
	return c.inner.SetSlotField(ctx, docID, slot, field, value)
}

func (c *Counting) SetSlotFieldIfUnset(ctx context.Context, docID string, slot int, field string, value any) (bool, error) {
	c.trip()
	return c.inner.SetSlotFieldIfUnset(ctx, docID, slot, field, value)
}

func (c *Counting) InsertBucket(ctx context.Context, doc *bucket.Doc) error {
	c.trip()
	return c.inner.InsertBucket(ctx, doc)
}

func (c *Counting) AddToDelList(ctx context.Context, docID string, slot int, users []string) (bool, error) {
	c.trip()
	return c.inner.AddToDelList(ctx, docID, slot, users)
}

func (c *Counting) MarkSlotRead(ctx context.Context, docID string, slot int, reader string) (bool, error) {
	c.trip()
	return c.inner.MarkSlotRead(ctx, docID, slot, reader)
}

func (c *Counting) SetSlotsField(ctx context.Context, docID, field string, sets []store.SlotValue) (bool, error) {
	c.trip()
	return c.inner.SetSlotsField(ctx, docID, field, sets)
}

func (c *Counting) SetSlotsFieldIfUnset(ctx context.Context, docID, field string, sets []store.SlotValue) (bool, error) {
	c.trip()
	return c.inner.SetSlotsFieldIfUnset(ctx, docID, field, sets)
}

func (c *Counting) AddToDelLists(ctx context.Context, docID string, slots []int, users []string) (int, error) {
	c.trip()
	return c.inner.AddToDelLists(ctx, docID, slots, users)
}

func (c *Counting) MarkSlotsRead(ctx context.Context, runs []store.BucketSlots, reader string) (int, error) {
	c.trip()
	return c.inner.MarkSlotsRead(ctx, runs, reader)
}

func (c *Counting) SeqRecords(ctx context.Context, cids []string) ([]bucket.SeqRecord, error) {
	c.trip()
	return c.inner.SeqRecords(ctx, cids)
}

func (c *Counting) RaiseMaxSeq(ctx context.Context, cid string, maxSeq int64) error {
	c.trip()
	return c.inner.RaiseMaxSeq(ctx, cid, maxSeq)
}

func (c *Counting) RaiseMaxSeqs(ctx context.Context, raises []store.SeqRaise) error {
	c.trip()
	return c.inner.RaiseMaxSeqs(ctx, raises)
}

func (c *Counting) InsertBuckets(ctx context.Context, docs []*bucket.Doc) (int, error) {
	c.trip()
	return c.inner.InsertBuckets(ctx, docs)
}

func (c *Counting) SeqUsers(ctx context.Context, uid string, cids []string) ([]bucket.SeqUser, error) {
	c.trip()
	return c.inner.SeqUsers(ctx, uid, cids)
}

func (c *Counting) SeqUsersOf(ctx context.Context, cid string, uids []string) ([]bucket.SeqUser, error) {
	c.trip()
	return c.inner.SeqUsersOf(ctx, cid, uids)
}

func (c *Counting) RaiseReadSeq(ctx context.Context, uid, cid string, seq int64) error {
	c.trip()
	return c.inner.RaiseReadSeq(ctx, uid, cid, seq)
}

func (c *Counting) Conversations(ctx context.Context, owner string) ([]bucket.Conversation, error) {
	c.trip()
	return c.inner.Conversations(ctx, owner)
}

func (c *Counting) ConversationsByID(ctx context.Context, cid string) ([]bucket.Conversation, error) {
	c.trip()
	return c.inner.ConversationsByID(ctx, cid)
}

func (c *Counting) Users(ctx context.Context, ids []string) ([]bucket.User, error) {
	c.trip()
	return c.inner.Users(ctx, ids)
}

func (c *Counting) Groups(ctx context.Context, ids []string) ([]bucket.Group, error) {
	c.trip()
	return c.inner.Groups(ctx, ids)
}

func (c *Counting) GroupMembers(ctx context.Context, groupID string) ([]bucket.GroupMember, error) {
	c.trip()
	return c.inner.GroupMembers(ctx, groupID)
}

func (c *Counting) InsertRaw(ctx context.Context, coll string, docs []bson.Raw, mode store.RawMode) (store.RawResult, error) {
	c.trip()
	return c.inner.InsertRaw(ctx, coll, docs, mode)
}

// ScanRaw is one round trip per call; the documents it streams are counted.
func (c *Counting) ScanRaw(ctx context.Context, coll, prefix string, fn func(bson.Raw) error) error {
	c.trip()
	return c.inner.ScanRaw(ctx, coll, prefix, func(raw bson.Raw) error {
		c.read([]bson.Raw{raw})
		return fn(raw)
	})
}

func (c *Counting) EnsureIndexes(ctx context.Context) error {
	c.trip()
	return c.inner.EnsureIndexes(ctx)
}

func (c *Counting) Indexes(ctx context.Context) (map[string][]store.IndexInfo, error) {
	c.trip()
	return c.inner.Indexes(ctx)
}

func (c *Counting) Describe() string                { return c.inner.Describe() }
func (c *Counting) Close(ctx context.Context) error { return c.inner.Close(ctx) }

// Flush ends a write operation on a backend that groups its writes (the
// embedded store commits them here). Not a round trip: no request crosses
// a wire, and the writes it commits were counted one by one.
func (c *Counting) Flush(ctx context.Context) error { return c.inner.Flush(ctx) }

// Sync is the inner backend's; not a round trip either.
func (c *Counting) Sync(ctx context.Context) error { return c.inner.Sync(ctx) }

// Committed is the inner backend's; not a round trip.
func (c *Counting) Committed() (written, committed uint64) { return c.inner.Committed() }

var _ store.Backend = (*Counting)(nil)

func (c *Counting) FindSlots(ctx context.Context, docID string, first, n int) (bson.Raw, bool, error) {
	c.trip()
	raw, sliced, err := c.inner.FindSlots(ctx, docID, first, n)
	if raw != nil {
		c.read([]bson.Raw{raw})
	}
	return raw, sliced, err
}

func (c *Counting) SlotReads() store.SlotReadMode { return c.inner.SlotReads() }

func (c *Counting) FindSlotRanges(ctx context.Context, ranges []store.SlotRange) ([]store.SlotRead, error) {
	c.trip()
	out, err := c.inner.FindSlotRanges(ctx, ranges)
	for _, r := range out {
		if r.Raw != nil {
			c.read([]bson.Raw{r.Raw})
		}
	}
	return out, err
}

func (c *Counting) FindNewestSlots(ctx context.Context, docIDs []string) ([]store.NewestRead, error) {
	c.trip()
	out, err := c.inner.FindNewestSlots(ctx, docIDs)
	for _, r := range out {
		if r.Raw != nil {
			c.read([]bson.Raw{r.Raw})
		}
	}
	return out, err
}

func (c *Counting) FindMsgDocIDsIn(ctx context.Context, docIDs []string, field, value string) ([]string, error) {
	c.trip()
	return c.inner.FindMsgDocIDsIn(ctx, docIDs, field, value)
}
