package store

import (
	"context"

	"github.com/chatlens/chatlens/store/bucket"
)

// Cache is the optional first read layer (OpenIM's Redis keys). Every method
// is one round trip. A Cache error never fails a read: Store falls back to the
// backend and records the error so the UI can warn.
type Cache interface {
	// Slots returns the cached slots among seqs of cid; misses and keys that
	// are locked (being rebuilt or invalidated) are simply absent.
	Slots(ctx context.Context, cid string, seqs []int64) (map[int64]*bucket.Slot, error)
	// Invalidate tags the slot keys of seqs as deleted, the way the server does.
	Invalidate(ctx context.Context, cid string, seqs []int64) error
	// MaxSeqs returns the current max seq of each cid that the cache knows.
	MaxSeqs(ctx context.Context, cids []string) (map[string]int64, error)
	// ReadSeqs returns uid's read seq in each cid that the cache knows.
	ReadSeqs(ctx context.Context, uid string, cids []string) (map[string]int64, error)
	// ReadSeqsOf returns the read seq in cid of each of uids that the cache
	// knows, keyed by user ID.
	ReadSeqsOf(ctx context.Context, cid string, uids []string) (map[string]int64, error)
	// RaiseReadSeq sets uid's read seq in cid to at least seq, atomically.
	RaiseReadSeq(ctx context.Context, cid, uid string, seq int64) error
	// Describe names the cache for the status bar, credentials masked.
	Describe() string
	Close() error
}

// UserSeqsCache is a Cache that also holds the seq_user values the server
// caches (pkg/common/storage/cache/redis/seq_user.go): SEQ_USER_MIN and
// SEQ_USER_MAX beside SEQ_USER_READ. The server reads each key first and
// the document only on a miss, so a window is read from them the same way.
type UserSeqsCache interface {
	// UserSeqs reads uid's three keys of each cid in one round trip.
	UserSeqs(ctx context.Context, uid string, cids []string) (CachedUserSeqs, error)
}

// CachedUserSeqs are a user's cached seq_user values, keyed by
// conversation; a miss (or a key being rebuilt) is absent. UnreadableMin
// holds, by conversation, a SEQ_USER_MIN key that answered with an error
// (WRONGTYPE: not a hash), which makes the server's pull skip it.
type CachedUserSeqs struct {
	Min, Max, Read map[string]int64
	UnreadableMin  map[string]KeyError
}

// KeyError is a cache key and the error Redis answered a read of it with.
type KeyError struct{ Key, Err string }
