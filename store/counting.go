package store

import (
	"context"
	"sync/atomic"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// Counter wraps a Backend and counts its round trips, the one place they
// are counted: every call that sends a request is one (the Backend
// contract); SlotReads, Describe, Committed, Flush, Sync and Close are
// none (Flush commits writes already counted one by one). Each role's
// methods live on their own part, so the Counter is a facade over them.
type Counter struct {
	countedReads
	countedWrites
	countedSeqs
	countedNames
	countedRaw
	countedLife
	inner Backend
	tally *tally
}

// Watch is told of what crosses the wire, for counters that want more
// than round trips (the benchmarks' documents, bytes and added latency).
type Watch struct {
	Trip func()         // before each round trip
	Read func(bson.Raw) // each msg document, or document scanned, read back
}

// NewCounter wraps inner, telling w (its nil fields: nothing) as it goes.
func NewCounter(inner Backend, w Watch) *Counter {
	t := &tally{watch: w}
	return &Counter{countedReads: countedReads{inner, t}, countedWrites: countedWrites{inner, t},
		countedSeqs: countedSeqs{inner, t}, countedNames: countedNames{inner, t}, countedRaw: countedRaw{inner, t},
		countedLife: countedLife{inner}, inner: inner, tally: t}
}

// RoundTrips is how many round trips went through the counter so far.
func (c *Counter) RoundTrips() int64 { return c.tally.trips.Load() }

// Inner is the wrapped backend, whose calls are not counted.
func (c *Counter) Inner() Backend { return c.inner }

// Traffic is the inner backend's own count of its traffic (Metered); ok
// false when it keeps none.
func (c *Counter) Traffic() (t Traffic, ok bool) {
	m, ok := c.inner.(Metered)
	if !ok {
		return Traffic{}, false
	}
	return m.Traffic(), true
}

// MsgShardKey asks the inner backend msg's shard key (ShardKeyed), one
// round trip; ok false, and no round trip, when it cannot tell.
func (c *Counter) MsgShardKey(ctx context.Context) (key string, ok bool, err error) {
	sk, ok := c.inner.(ShardKeyed)
	if !ok {
		return "", false, nil
	}
	c.tally.count()
	key, err = sk.MsgShardKey(ctx)
	return key, true, err
}

// tally is the counters every part of a Counter adds to.
type tally struct {
	trips atomic.Int64
	watch Watch
}

// count adds one round trip, before it is made.
func (t *tally) count() {
	t.trips.Add(1)
	if t.watch.Trip != nil {
		t.watch.Trip()
	}
}

// read tells the watch of a document read back.
func (t *tally) read(raw bson.Raw) {
	if t.watch.Read != nil {
		t.watch.Read(raw)
	}
}

// countedReads counts the reads of buckets.
type countedReads struct {
	inner BucketReader
	tally *tally
}

func (c countedReads) FindBuckets(ctx context.Context, docIDs []string) ([]bson.Raw, error) {
	c.tally.count()
	raws, err := c.inner.FindBuckets(ctx, docIDs)
	for _, raw := range raws {
		c.tally.read(raw)
	}
	return raws, err
}

func (c countedReads) FindSlots(ctx context.Context, docID string, first, n int) (bson.Raw, bool, error) {
	c.tally.count()
	raw, sliced, err := c.inner.FindSlots(ctx, docID, first, n)
	if raw != nil {
		c.tally.read(raw)
	}
	return raw, sliced, err
}

// SlotReads is the inner backend's; not a round trip.
func (c countedReads) SlotReads() SlotReadMode { return c.inner.SlotReads() }

func (c countedReads) FindSlotRanges(ctx context.Context, ranges []SlotRange) ([]SlotRead, error) {
	c.tally.count()
	out, err := c.inner.FindSlotRanges(ctx, ranges)
	for _, r := range out {
		if r.Raw != nil {
			c.tally.read(r.Raw)
		}
	}
	return out, err
}

func (c countedReads) FindNewestSlots(ctx context.Context, docIDs []string) ([]NewestRead, error) {
	c.tally.count()
	out, err := c.inner.FindNewestSlots(ctx, docIDs)
	for _, r := range out {
		if r.Raw != nil {
			c.tally.read(r.Raw)
		}
	}
	return out, err
}

func (c countedReads) BucketIDs(ctx context.Context, cid string) ([]string, error) {
	c.tally.count()
	return c.inner.BucketIDs(ctx, cid)
}

func (c countedReads) NextConversationID(ctx context.Context, after string) (string, bool, error) {
	c.tally.count()
	return c.inner.NextConversationID(ctx, after)
}

func (c countedReads) FindMsgDocIDs(ctx context.Context, cid, field, value string) ([]string, error) {
	c.tally.count()
	return c.inner.FindMsgDocIDs(ctx, cid, field, value)
}

func (c countedReads) FindMsgDocIDsIn(ctx context.Context, docIDs []string, field, value string) ([]string, error) {
	c.tally.count()
	return c.inner.FindMsgDocIDsIn(ctx, docIDs, field, value)
}

// countedWrites counts the writes of buckets.
type countedWrites struct {
	inner BucketWriter
	tally *tally
}

func (c countedWrites) SetSlotField(ctx context.Context, docID string, slot int, field string, value any) (bool, error) {
	c.tally.count()
	return c.inner.SetSlotField(ctx, docID, slot, field, value)
}

func (c countedWrites) SetSlotFieldIfUnset(ctx context.Context, docID string, slot int, field string, value any) (bool, error) {
	c.tally.count()
	return c.inner.SetSlotFieldIfUnset(ctx, docID, slot, field, value)
}

func (c countedWrites) InsertBucket(ctx context.Context, doc *bucket.Doc) error {
	c.tally.count()
	return c.inner.InsertBucket(ctx, doc)
}

func (c countedWrites) InsertBuckets(ctx context.Context, docs []*bucket.Doc) (int, error) {
	c.tally.count()
	return c.inner.InsertBuckets(ctx, docs)
}

func (c countedWrites) AddToDelList(ctx context.Context, docID string, slot int, users []string) (bool, error) {
	c.tally.count()
	return c.inner.AddToDelList(ctx, docID, slot, users)
}

func (c countedWrites) MarkSlotRead(ctx context.Context, docID string, slot int, reader string) (bool, error) {
	c.tally.count()
	return c.inner.MarkSlotRead(ctx, docID, slot, reader)
}

func (c countedWrites) SetSlotsField(ctx context.Context, docID, field string, sets []SlotValue) (bool, error) {
	c.tally.count()
	return c.inner.SetSlotsField(ctx, docID, field, sets)
}

func (c countedWrites) SetSlotsFieldIfUnset(ctx context.Context, docID, field string, sets []SlotValue) (bool, error) {
	c.tally.count()
	return c.inner.SetSlotsFieldIfUnset(ctx, docID, field, sets)
}

func (c countedWrites) AddToDelLists(ctx context.Context, docID string, slots []int, users []string) (int, error) {
	c.tally.count()
	return c.inner.AddToDelLists(ctx, docID, slots, users)
}

func (c countedWrites) MarkSlotsRead(ctx context.Context, runs []BucketSlots, reader string) (int, error) {
	c.tally.count()
	return c.inner.MarkSlotsRead(ctx, runs, reader)
}

// countedSeqs counts the reads and writes of seq records.
type countedSeqs struct {
	inner SeqRecorder
	tally *tally
}

func (c countedSeqs) SeqRecords(ctx context.Context, cids []string) ([]bucket.SeqRecord, error) {
	c.tally.count()
	return c.inner.SeqRecords(ctx, cids)
}

func (c countedSeqs) RaiseMaxSeq(ctx context.Context, cid string, maxSeq int64) error {
	c.tally.count()
	return c.inner.RaiseMaxSeq(ctx, cid, maxSeq)
}

func (c countedSeqs) RaiseMaxSeqs(ctx context.Context, raises []SeqRaise) error {
	c.tally.count()
	return c.inner.RaiseMaxSeqs(ctx, raises)
}

func (c countedSeqs) SeqUsers(ctx context.Context, uid string, cids []string) ([]bucket.SeqUser, error) {
	c.tally.count()
	return c.inner.SeqUsers(ctx, uid, cids)
}

func (c countedSeqs) SeqUsersOf(ctx context.Context, cid string, uids []string) ([]bucket.SeqUser, error) {
	c.tally.count()
	return c.inner.SeqUsersOf(ctx, cid, uids)
}

func (c countedSeqs) RaiseReadSeq(ctx context.Context, uid, cid string, seq int64) error {
	c.tally.count()
	return c.inner.RaiseReadSeq(ctx, uid, cid, seq)
}

// countedNames counts the reads of conversations, members and names.
type countedNames struct {
	inner Directory
	tally *tally
}

func (c countedNames) Conversations(ctx context.Context, owner string) ([]bucket.Conversation, error) {
	c.tally.count()
	return c.inner.Conversations(ctx, owner)
}

func (c countedNames) ConversationsByID(ctx context.Context, cid string) ([]bucket.Conversation, error) {
	c.tally.count()
	return c.inner.ConversationsByID(ctx, cid)
}

func (c countedNames) Users(ctx context.Context, ids []string) ([]bucket.User, error) {
	c.tally.count()
	return c.inner.Users(ctx, ids)
}

func (c countedNames) Groups(ctx context.Context, ids []string) ([]bucket.Group, error) {
	c.tally.count()
	return c.inner.Groups(ctx, ids)
}

func (c countedNames) GroupMembers(ctx context.Context, groupID string) ([]bucket.GroupMember, error) {
	c.tally.count()
	return c.inner.GroupMembers(ctx, groupID)
}

// countedRaw counts the raw documents and indexes of import, export and
// check.
type countedRaw struct {
	inner RawDocs
	tally *tally
}

func (c countedRaw) InsertRaw(ctx context.Context, coll string, docs []bson.Raw, mode RawMode) (RawResult, error) {
	c.tally.count()
	return c.inner.InsertRaw(ctx, coll, docs, mode)
}

// ScanRaw is one round trip per call; each document it streams is read.
func (c countedRaw) ScanRaw(ctx context.Context, coll, prefix string, fn func(bson.Raw) error) error {
	c.tally.count()
	return c.inner.ScanRaw(ctx, coll, prefix, func(raw bson.Raw) error {
		c.tally.read(raw)
		return fn(raw)
	})
}

func (c countedRaw) EnsureIndexes(ctx context.Context) error {
	c.tally.count()
	return c.inner.EnsureIndexes(ctx)
}

func (c countedRaw) Indexes(ctx context.Context) (map[string][]IndexInfo, error) {
	c.tally.count()
	return c.inner.Indexes(ctx)
}

// countedLife passes on the backend's lifecycle and description, none of
// them a round trip.
type countedLife struct{ inner Lifecycle }

// Flush ends a write operation on a backend that groups its writes (the
// embedded store commits them here). Not a round trip: no request crosses
// a wire, and the writes it commits were counted one by one.
func (c countedLife) Flush(ctx context.Context) error { return c.inner.Flush(ctx) }

func (c countedLife) Sync(ctx context.Context) error { return c.inner.Sync(ctx) }

func (c countedLife) Committed() (written, committed uint64) { return c.inner.Committed() }

func (c countedLife) Describe() string { return c.inner.Describe() }

func (c countedLife) Close(ctx context.Context) error { return c.inner.Close(ctx) }

// Each part serves its role, and the Counter all of them.
var (
	_ BucketReader = countedReads{}
	_ BucketWriter = countedWrites{}
	_ SeqRecorder  = countedSeqs{}
	_ Directory    = countedNames{}
	_ RawDocs      = countedRaw{}
	_ Lifecycle    = countedLife{}
	_ Backend      = (*Counter)(nil)
)
