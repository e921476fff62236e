package bucket

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The contract every backend serves (embedded, mongostore), below the
// store, which wraps a backend in its counter of round trips: the roles of
// a Backend, the words of their calls, and the errors a backend returns.

// ErrDuplicateKey is returned by InsertBucket when a document with the same
// doc_id exists: someone else created the bucket first.
var ErrDuplicateKey = errors.New("duplicate key")

// Slot fields the state machine writes.
const (
	FieldMsg    = "msg"
	FieldRevoke = "revoke"
)

// ErrOutcomeUnknown marks a write whose request may have reached the server
// but whose reply was lost (connection dropped, no answer in time): it may
// have landed. Backends wrap such errors with it; the state machine then
// reports those seqs as unknown, never as not done.
var ErrOutcomeUnknown = errors.New("outcome unknown")

// ErrNotWritten marks a write error that says the server wrote nothing
// and a second try may succeed: a deadlock (PostgreSQL's "deadlock
// detected" through FerretDB, for one of several inserts of one new
// bucket), a write conflict, a transient or retryable error label, a
// primary stepping down in a failover. Backends wrap such errors with it;
// the store's state machine tries the bucket again, a few times at most,
// deciding afresh between update and insert.
var ErrNotWritten = errors.New("nothing written, worth another try")

// Backend is the storage contract every backend implements, the
// composition of its roles. Each method that asks the server is one round
// trip (one query or one command) so that the store's Counter can count round trips
// honestly, and each mirrors one MongoDB query shape of OPENIM.md: find by
// doc_id / $in, $set, $addToSet, filtered update, insert.
type Backend interface {
	BucketReader
	BucketWriter
	SeqRecorder
	Directory
	RawDocs
	Lifecycle
}

// BucketReader reads the msg collection: buckets whole or cut to slots,
// and doc_ids.
type BucketReader interface {
	// FindBuckets returns the msg documents with the given doc_ids, in any
	// order, missing ones left out: find({doc_id: {$in: ids}}).
	FindBuckets(ctx context.Context, docIDs []string) ([]bson.Raw, error)
	// FindSlots reads n slots of bucket docID from slot first, not the
	// whole bucket where the server can: find({doc_id}, {msgs: {$slice:
	// [first, n]}}). sliced says raw's msgs starts at slot first; false
	// means raw is the whole bucket (a server without the projection).
	// raw is nil when no document has that doc_id.
	FindSlots(ctx context.Context, docID string, first, n int) (raw bson.Raw, sliced bool, err error)
	// SlotReads says how FindSlots reads, for check and the status bar:
	// SlotsProjected, SlotsWholeBucket, or SlotsUnknown before the first
	// read on a server that has to be asked.
	SlotReads() SlotReadMode
	// FindSlotRanges reads several buckets in one round trip, each cut to
	// its range of slots where the server can: a range read's buckets, the
	// ones at its edges only partly asked. out[i] answers ranges[i] (Raw
	// nil when no document has that doc_id; Sliced as in FindSlots); the
	// doc_ids are distinct.
	FindSlotRanges(ctx context.Context, ranges []SlotRange) (out []SlotRead, err error)
	// FindNewestSlots reads, of each bucket docIDs names, only its last
	// slot that is not untouched (IsUntouched) and where it lies:
	// what a conversation list needs of a newest  out[i] answers
	// docIDs[i] (the doc_ids are distinct); a bucket whose msgs is not an
	// array of 100 slots comes back whole (Cut false), and so does every
	// bucket on a server that cannot cut them.
	FindNewestSlots(ctx context.Context, docIDs []string) (out []NewestRead, err error)
	// BucketIDs lists the doc_ids of conversation cid (prefix "<cid>:"),
	// answered from the doc_id index alone.
	BucketIDs(ctx context.Context, cid string) ([]string, error)
	// NextConversationID returns the first conversation ID whose buckets sort
	// after the ones of conversation after ("" starts at the beginning); ok is
	// false past the end. A loose index scan over doc_id, for a bare msg
	// collection without a conversation collection.
	NextConversationID(ctx context.Context, after string) (cid string, ok bool, err error)
	// FindMsgDocIDs lists the doc_ids of the msg documents holding a message
	// whose msgs.msg.<field> is value, only among the buckets of cid when cid
	// is not "": find({"msgs.msg.<field>": value [, doc_id range of cid]},
	// {doc_id: 1}). Fast with an index on that path; a scan without one.
	FindMsgDocIDs(ctx context.Context, cid, field, value string) ([]string, error)
	// FindMsgDocIDsIn is FindMsgDocIDs among the buckets docIDs only:
	// find({doc_id: {$in: docIDs}, "msgs.msg.<field>": value}, {doc_id: 1}),
	// which the doc_id index narrows (and routes, on a cluster sharded by
	// doc_id) before any bucket is looked into.
	FindMsgDocIDsIn(ctx context.Context, docIDs []string, field, value string) ([]string, error)
}

// BucketWriter writes the msg collection: the bucket state machine's
// updates and inserts.
type BucketWriter interface {
	// SetSlotField runs updateOne({doc_id}, {$set: {"msgs.<slot>.<field>": value}}).
	// matched is false when no document has that doc_id.
	SetSlotField(ctx context.Context, docID string, slot int, field string, value any) (matched bool, err error)
	// SetSlotFieldIfUnset runs updateOne({doc_id, "msgs.<slot>.<field>":
	// {$not: {$type: "object"}}}, {$set: {"msgs.<slot>.<field>": value}}):
	// the check (the field holds no document yet, e.g. not revoked) and the
	// write in one step, so of two concurrent writers only one matches.
	// matched is false when no document has that doc_id or the field is set.
	SetSlotFieldIfUnset(ctx context.Context, docID string, slot int, field string, value any) (matched bool, err error)
	// InsertBucket inserts a new bucket; ErrDuplicateKey if doc_id exists.
	InsertBucket(ctx context.Context, doc *Doc) error
	// InsertBuckets inserts new buckets in order, each as InsertBucket
	// does, in as few requests as the backend can (an ordered insertMany
	// on MongoDB). It stops at the first bucket not stored: inserted
	// counts the leading buckets known stored, and a doc_id that exists
	// stops it with ErrDuplicateKey at docs[inserted]. A request whose
	// reply was lost counts none of its buckets.
	InsertBuckets(ctx context.Context, docs []*Doc) (inserted int, err error)
	// AddToDelList runs updateOne({doc_id}, {$addToSet: {"msgs.<slot>.del_list": {$each: users}}}).
	AddToDelList(ctx context.Context, docID string, slot int, users []string) (matched bool, err error)
	// MarkSlotRead runs updateOne({doc_id, "msgs.<slot>.msg.send_id": {$ne: reader}},
	// {$set: {"msgs.<slot>.is_read": true}}).
	MarkSlotRead(ctx context.Context, docID string, slot int, reader string) (matched bool, err error)

	// Writes of several slots of one bucket in one round trip: the state
	// machine writes by the bucket, not by the seq. Slots are distinct.

	// SetSlotsField runs updateOne({doc_id}, {$set: {"msgs.<slot>.<field>":
	// value, ...}}) with one path per entry of sets. matched is false when
	// no document has that doc_id.
	SetSlotsField(ctx context.Context, docID, field string, sets []SlotValue) (matched bool, err error)
	// SetSlotsFieldIfUnset is SetSlotsField with every slot's condition of
	// SetSlotFieldIfUnset in the filter: it matches, and writes, only when
	// none of the slots' fields holds a document yet.
	SetSlotsFieldIfUnset(ctx context.Context, docID, field string, sets []SlotValue) (matched bool, err error)
	// AddToDelLists runs AddToDelList for each slot, in order, as one
	// request: one slot's path per update, as OpenIM's PushUnique
	// (pkg/common/storage/database/mgo/msg.go) sends it, never one
	// $addToSet naming several slots (FerretDB v2 with DocumentDB then
	// writes a slot with two del_list fields), in one ordered BulkWrite on
	// MongoDB, one transaction on the embedded store. ran counts the
	// leading slot updates that ran before err stopped the rest.
	AddToDelLists(ctx context.Context, docID string, slots []int, users []string) (ran int, err error)
	// MarkSlotsRead runs MarkSlotRead's filtered update for each slot of
	// each run, in order, as one request however many buckets the runs
	// name: one ordered BulkWrite on MongoDB (OpenIM's
	// MarkSingleChatMsgsAsRead sends one per bucket, which costs a round
	// trip each), one transaction on the embedded store. ran counts the
	// leading slot updates, in order across the runs, that ran before err
	// stopped it.
	MarkSlotsRead(ctx context.Context, runs []BucketSlots, reader string) (ran int, err error)
}

// SeqRecorder reads and raises the seq and seq_user records: a
// conversation's max seq, each user's read seq.
type SeqRecorder interface {
	// SeqRecords reads the seq documents of the given conversations.
	SeqRecords(ctx context.Context, cids []string) ([]SeqRecord, error)
	// RaiseMaxSeq sets seq.max_seq of cid to at least maxSeq (upsert, $max).
	RaiseMaxSeq(ctx context.Context, cid string, maxSeq int64) error
	// RaiseMaxSeqs is RaiseMaxSeq of each raise, in one request on
	// MongoDB (a bulk write); on an error, which were raised is unknown.
	RaiseMaxSeqs(ctx context.Context, raises []SeqRaise) error
	// SeqUsers reads user uid's seq_user documents for the given conversations.
	SeqUsers(ctx context.Context, uid string, cids []string) ([]SeqUser, error)
	// SeqUsersOf reads the seq_user documents of cid for the given users:
	// every member's read seq in one round trip (who has read a message).
	SeqUsersOf(ctx context.Context, cid string, uids []string) ([]SeqUser, error)
	// RaiseReadSeq sets seq_user.read_seq to at least seq (upsert, $max).
	RaiseReadSeq(ctx context.Context, uid, cid string, seq int64) error
}

// Directory reads the conversation documents and the naming collections:
// who is in a conversation or group, and what they are called.
type Directory interface {
	// Conversations lists the conversation documents owned by owner.
	Conversations(ctx context.Context, owner string) ([]Conversation, error)
	// ConversationsByID reads the conversation documents of cid, one per owner.
	ConversationsByID(ctx context.Context, cid string) ([]Conversation, error)

	// Users, Groups and GroupMembers read the optional naming collections;
	// an absent collection reads as empty.
	Users(ctx context.Context, ids []string) ([]User, error)
	Groups(ctx context.Context, ids []string) ([]Group, error)
	GroupMembers(ctx context.Context, groupID string) ([]GroupMember, error)
}

// RawDocs stores and scans documents of any collection as they are, and
// keeps the indexes: import, export and check.
type RawDocs interface {
	// InsertRaw stores documents of any collection exactly as given (import).
	// A document whose UniqueKey(coll) is stored already (or comes earlier in
	// docs) is refused under RawInsert and replaces the stored one under
	// RawUpsert, as mongoimport's --mode insert and upsert. Documents that
	// break the bucket rules are stored too: real stores have them.
	InsertRaw(ctx context.Context, coll string, docs []bson.Raw, mode RawMode) (RawResult, error)
	// ScanRaw calls fn for each stored document of coll; for msg, prefix
	// limits it to doc_ids starting with prefix (export, check).
	ScanRaw(ctx context.Context, coll, prefix string, fn func(bson.Raw) error) error
	// EnsureIndexes creates those of OpenIM's indexes (OpenIMIndexes) that
	// are missing, with OpenIM's keys, options and names; an index present
	// with the same keys or name is left exactly as it is.
	EnsureIndexes(ctx context.Context) error
	// Indexes describes the indexes present, per collection (for check).
	Indexes(ctx context.Context) (map[string][]IndexInfo, error)
}

// Lifecycle ends, makes durable, describes and closes a backend; none of
// its methods is a round trip of its own.
type Lifecycle interface {
	// Flush ends one write operation. A backend that groups a write's calls
	// into one commit (the embedded store on an exclusive handle) commits
	// them here, and the write is done only once it returns; others have
	// nothing to do.
	Flush(ctx context.Context) error
	// Sync makes every write that returned durable (the embedded store
	// opened with NoSync syncs here); others have nothing to do.
	Sync(ctx context.Context) error
	// Committed counts the write calls that returned success and, of
	// them, those committed. A backend may return a write before it is
	// committed (the embedded store opened with NoSync groups writes into
	// one later commit), and a commit that fails (a full disk) loses them:
	// a bulk writer counts a write as stored once committed reaches the
	// written count taken after it. Backends that commit each write before
	// it returns report the two equal.
	Committed() (written, committed uint64)

	// Describe names the backend for the status bar, credentials masked.
	Describe() string
	Close(ctx context.Context) error
}

// SeqRaise is a conversation's max_seq raised to at least MaxSeq.
type SeqRaise struct {
	Cid    string
	MaxSeq int64
}

// SlotValue is the value one slot's field is set to.
type SlotValue struct {
	Slot  int
	Value any
}

// BucketSlots is slots of bucket DocID, one run of a request that writes
// several buckets.
type BucketSlots struct {
	DocID string
	Slots []int
}

// SlotRange is N slots of bucket DocID from slot First.
type SlotRange struct {
	DocID    string
	First, N int
}

// Whole says r asks every slot of its
func (r SlotRange) Whole() bool { return r.First == 0 && r.N >= BucketSize }

// SlotRead is what FindSlotRanges read for one range: Raw's msgs starts at
// the range's first slot when Sliced, else Raw is the whole
type SlotRead struct {
	Raw    bson.Raw
	Sliced bool
}

// NewestRead is what FindNewestSlots read of one  With Cut, At is
// the position of its last slot that is not untouched (-1: every slot is)
// and Raw's msgs holds that slot alone (none for -1). Without, Raw is the
// whole bucket (its doc_id and msgs at least), nil when no document has
// that doc_id.
type NewestRead struct {
	Raw bson.Raw
	At  int
	Cut bool
}

// IndexInfo describes one index: its name, its keys in order, uniqueness.
type IndexInfo struct {
	Name   string
	Keys   []string
	Unique bool
}

// RawMode says what InsertRaw does with a document whose key is stored.
type RawMode int

const (
	RawInsert RawMode = iota // refuse it: nothing stored is ever replaced
	RawUpsert                // replace the stored document with it
)

// RawResult is what InsertRaw did with each document of a call.
type RawResult struct {
	Inserted, Replaced int
	Refused            []int // positions in docs of the documents refused (RawInsert)
}

// SlotReadMode is how a backend reads a few slots of a
type SlotReadMode int

const (
	SlotsUnknown     SlotReadMode = iota // not asked of the server yet
	SlotsProjected                       // only the slots asked for cross the wire
	SlotsWholeBucket                     // the whole bucket is read; only the slots asked for are decoded
)

func (m SlotReadMode) String() string {
	switch m {
	case SlotsProjected:
		return "slot reads: projected ($slice)"
	case SlotsWholeBucket:
		return "slot reads: whole bucket (no $slice projection)"
	}
	return "slot reads: not probed yet"
}

// Traffic is what a backend has asked of its server and read back since it
// was opened: the figures `--stats` prints.
type Traffic struct {
	// Requests are the requests sent: commands on the wire (a find's
	// getMore is one more) on MongoDB, transactions on the embedded store.
	Requests int64
	// BytesRead are the bytes of the answers: the replies on MongoDB, the
	// stored bytes handed out (a cut bucket's slots, not the whole
	// bucket) on the embedded store.
	BytesRead int64
}

// Metered is implemented by backends that count their own traffic, reads
// made through Store.Backend() included.
type Metered interface {
	Traffic() Traffic
}

// Describe shows a present index: "name {a: 1} unique".
func (i IndexInfo) Describe() string { return i.Name + " " + DescribeKeys(i.Keys, i.Unique) }

// DescribeKeys shows an index's keys as a line of check: "{a: 1, b: 1} unique".
func DescribeKeys(keys []string, unique bool) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": 1"
	}
	s := fmt.Sprintf("{%s}", strings.Join(parts, ", "))
	if unique {
		s += " unique"
	}
	return s
}
