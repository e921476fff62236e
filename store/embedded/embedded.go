// Package embedded is the bucket.Backend on a single local bbolt file: the
// same BSON documents as MongoDB, keyed so that every query chatlens makes is
// a point read or a short prefix scan of one B+tree.
package embedded

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/chatlens/chatlens/store/bucket"
)

// Options configure Open.
type Options struct {
	// NoSync skips fsync after each commit, and (on an exclusive read-write
	// handle) lets consecutive write operations share one bbolt commit of
	// up to 64 writes: much faster for bulk writers (seed), but a write is
	// durable only once Sync or Close returns; a crash before then can lose
	// the writes since the last Sync. For tests and seeding.
	NoSync bool
	// CommitEach keeps one commit per write operation (Flush) even with
	// NoSync, so the bench compares layouts commit for commit.
	CommitEach bool
	// Timeout bounds the wait for the file lock held by another process
	// (another chatlens on the same file); 0 means DefaultTimeout.
	Timeout time.Duration
	// ReadOnly opens the file with a shared lock: several readers may share
	// it, and every write fails.
	ReadOnly bool
	// Shared holds the file only for the duration of each transaction (a
	// read under the shared lock, a write under the exclusive one), so
	// other processes can read and write it between them and their writes
	// are seen on the next read. For a UI left open and commands that may
	// run beside it; bulk writers (seed, import) keep it for their run.
	Shared bool
}

// DefaultTimeout is how long Open waits for the file lock.
const DefaultTimeout = time.Second

// Backend is a bucket.Backend on one bbolt file. Each method is one bbolt
// transaction; bbolt runs one writer at a time, so concurrent updates to one
// document never lose each other. It is a facade over one type per role of
// bucket.Backend, all on one handle, and keeps the lifecycle itself.
type Backend struct {
	*handle
	msgReads
	msgWrites
	seqs
	directory
	rawDocs
}

// handle is the file every role of a Backend works on.
type handle struct {
	db   *file
	path string
}

// The roles of a Backend, each one type.
type (
	msgReads  struct{ *handle } // msg.go, slots.go, newest.go, find.go
	msgWrites struct{ *handle } // msg.go, update.go, bulk.go
	seqs      struct{ *handle } // records.go, sequser.go, bulk.go
	directory struct{ *handle } // records.go
	rawDocs   struct{ *handle } // raw.go, clear.go, the indexes
)

var (
	_ bucket.BucketReader = (*msgReads)(nil)
	_ bucket.BucketWriter = (*msgWrites)(nil)
	_ bucket.SeqRecorder  = (*seqs)(nil)
	_ bucket.Directory    = (*directory)(nil)
	_ bucket.RawDocs      = (*rawDocs)(nil)
	_ bucket.Lifecycle    = (*Backend)(nil)
	_ bucket.Backend      = (*Backend)(nil)
	_ bucket.Metered      = (*Backend)(nil)
)

func newBackend(db *file, path string) *Backend {
	h := &handle{db: db, path: path}
	return &Backend{handle: h, msgReads: msgReads{h}, msgWrites: msgWrites{h}, seqs: seqs{h},
		directory: directory{h}, rawDocs: rawDocs{h}}
}

// bbolt bucket names: one per collection ("c." + name) and the auxiliary key
// spaces ("x." + purpose), so no collection name can collide with them.
var (
	bucketMeta       = []byte("x.meta")
	bucketMsgOdd     = []byte("x.msg.odd_doc_id")
	bucketMsgSlots   = []byte("x.msg.slots") // the slot index (slotindex.go)
	bucketConvByID   = []byte("x.conversation.by_conversation_id")
	metaFormatKey    = []byte("format")
	metaFormatValue  = []byte("chatlens-embedded/1")
	collectionPrefix = "c."
)

func collBucket(coll string) []byte { return []byte(collectionPrefix + coll) }

// Open opens (creating it if needed) the store at path.
func Open(path string, opts Options) (*Backend, error) {
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	if err := checkFile(path, opts.ReadOnly); err != nil {
		return nil, err
	}
	db, err := openFile(path, bolt.Options{Timeout: timeout, NoSync: opts.NoSync,
		ReadOnly: opts.ReadOnly, FreelistType: bolt.FreelistMapType}, opts.Shared, opts.CommitEach)
	if err != nil {
		return nil, err
	}
	b := newBackend(db, path)
	if err := b.checkFormat(!opts.ReadOnly); err != nil {
		_ = db.Close()
		return nil, err
	}
	return b, nil
}

// checkFormat refuses a bbolt file that chatlens did not create, and marks
// and lays out a new one.
func (b *Backend) checkFormat(writable bool) error {
	check := func(tx *bolt.Tx) error {
		if meta := tx.Bucket(bucketMeta); meta != nil {
			if got := meta.Get(metaFormatKey); string(got) != string(metaFormatValue) {
				return fmt.Errorf("embedded store %s has format %q, this chatlens reads %q", b.path, got, metaFormatValue)
			}
			return nil
		}
		empty := tx.ForEach(func([]byte, *bolt.Bucket) error { return errNotEmpty }) == nil
		if !empty {
			return fmt.Errorf("%s is a bbolt file that chatlens did not create", b.path)
		}
		if !writable {
			return nil
		}
		meta, err := tx.CreateBucket(bucketMeta)
		if err != nil {
			return err
		}
		return meta.Put(metaFormatKey, metaFormatValue)
	}
	if !writable {
		return b.db.View(check)
	}
	return b.db.Update(func(tx *bolt.Tx) error {
		if err := check(tx); err != nil {
			return err
		}
		return createBuckets(tx)
	})
}

var errNotEmpty = errors.New("not empty")

// createBuckets lays out the key spaces of every known collection.
func createBuckets(tx *bolt.Tx) error {
	names := [][]byte{bucketMsgOdd, bucketMsgSlots, bucketConvByID}
	for _, c := range bucket.Collections {
		names = append(names, collBucket(c))
	}
	for _, n := range names {
		if _, err := tx.CreateBucketIfNotExists(n); err != nil {
			return err
		}
	}
	return nil
}

// Path is the file the store lives in.
func (b *Backend) Path() string { return b.path }

// Describe names the backend for the status bar.
func (b *Backend) Describe() string { return "embedded " + b.path }

// Close makes every write durable (see Options.NoSync) and releases the
// file and its lock.
func (b *Backend) Close(context.Context) error { return b.db.Close() }

// Flush ends one write operation of the store (store.Store calls it after
// each): on an exclusive handle the operation's writes share one bbolt
// transaction, committed here (durable but with NoSync, where the group
// may stay open for the next operation; see Options.NoSync). A shared
// handle commits each write as it goes.
func (b *Backend) Flush(context.Context) error { return b.db.Flush() }

// Sync makes every write that returned durable: with NoSync it commits the
// open group of writes and flushes the file; otherwise each write was
// already. Bulk writers call it before they report success.
func (b *Backend) Sync(context.Context) error { return b.db.Sync() }

// Committed reports how many write calls returned success and how many of
// them are committed: with NoSync, consecutive writes share a commit, and
// a commit that fails (a full disk) loses writes that had returned. A bulk
// writer counts a write as stored once it is committed.
func (b *Backend) Committed() (written, committed uint64) { return b.db.Committed() }

// EnsureIndexes lays out the key spaces; the key layouts are the indexes.
func (b *rawDocs) EnsureIndexes(context.Context) error {
	return b.db.Update(createBuckets)
}

// Indexes reports the key layouts as the indexes they stand for: every known
// collection's unique key (seq_user's pair, not unique), the secondary
// conversation_id key, and _id for collections chatlens does not know.
func (b *rawDocs) Indexes(context.Context) (map[string][]bucket.IndexInfo, error) {
	out := map[string][]bucket.IndexInfo{}
	for _, c := range bucket.Collections {
		out[c] = []bucket.IndexInfo{uniqueIndex(bucket.UniqueKey(c)...)}
	}
	out[bucket.CollConversation] = append(out[bucket.CollConversation],
		uniqueIndex("conversation_id", "owner_user_id"))
	// seq_user holds several documents of a pair (sequser.go).
	seqUser := uniqueIndex(bucket.UniqueKey(bucket.CollSeqUser)...)
	seqUser.Unique = false
	out[bucket.CollSeqUser] = []bucket.IndexInfo{seqUser}
	err := b.db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			coll, ok := strings.CutPrefix(string(name), collectionPrefix)
			if _, known := out[coll]; ok && !known {
				out[coll] = []bucket.IndexInfo{uniqueIndex("_id")}
			}
			return nil
		})
	})
	return out, err
}

// uniqueIndex names an index the way MongoDB does ("doc_id_1").
func uniqueIndex(keys ...string) bucket.IndexInfo {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "_1"
	}
	return bucket.IndexInfo{Name: strings.Join(parts, "_"), Keys: keys, Unique: true}
}

// Traffic counts the transactions run and the stored bytes read out.
func (b *Backend) Traffic() bucket.Traffic {
	return bucket.Traffic{Requests: b.db.requests.Load(), BytesRead: b.db.bytesRead.Load()}
}
