// Package bench measures OpenIM's bucket layout (100 messages per msg
// document, written through the state machine) against a layout of one
// document per message, side by side on the same backend and the same
// conversation. It backs `chatlens bench`.
package bench

import (
	"fmt"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// Target says where the bench runs. It never touches the user's data: the
// embedded store is a fresh file in a temporary directory, and MongoDB gets
// a scratch database (chatlens_bench_<random>) that is dropped afterwards.
type Target struct {
	// MongoURI selects MongoDB; empty selects the embedded store.
	MongoURI string
	// TempDir is where the embedded store's scratch directory is created
	// ("" = the system temporary directory). The directory is removed after.
	TempDir string
	// NoSync skips fsync after each embedded commit, in both layouts: it
	// measures CPU and page cache rather than the disk. MongoDB ignores it.
	NoSync bool
}

// Options size the bench.
type Options struct {
	Messages     int    // messages in the conversation (default 100,000)
	Seed         int64  // seeds the generated messages and the random reads
	Conversation string // conversation ID (default "sg_bench")
	// BatchSize is the messages per write batch for both layouts
	// (default 100: one InsertMessages call, one InsertMany, one transaction).
	BatchSize int
	// RandomReads is how many single-seq reads the random scenario makes
	// (default 1,000; FerretDB scans on every read, so its tests use fewer).
	RandomReads int
	// BucketSize is the slots per bucket document (default 100, the store's
	// own layout); any other size uses the bench-only wide layout.
	BucketSize int
}

// Defaults of Options.
const (
	DefaultMessages     = 100_000
	DefaultConversation = "sg_bench"
	DefaultBatchSize    = 100
	DefaultRandomReads  = 1000
	// MaxMessages bounds the conversation: each message is written in both
	// layouts, about 3 KB of scratch space in all (3 GB at the bound).
	MaxMessages = 1_000_000
)

func (o Options) withDefaults() (Options, error) {
	if o.Messages == 0 {
		o.Messages = DefaultMessages
	}
	if o.Conversation == "" {
		o.Conversation = DefaultConversation
	}
	if o.BatchSize == 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.BucketSize == 0 {
		o.BucketSize = bucket.BucketSize
	}
	if o.RandomReads == 0 {
		o.RandomReads = DefaultRandomReads
	}
	switch {
	case o.Messages < 1:
		return o, fmt.Errorf("bench: --messages must be at least 1, got %d", o.Messages)
	case o.Messages > MaxMessages:
		return o, fmt.Errorf("bench: --messages must be at most %d, got %d", MaxMessages, o.Messages)
	case strings.ContainsAny(o.Conversation, ":\x00"):
		return o, fmt.Errorf("bench: conversation ID %q must not contain ':' or NUL", o.Conversation)
	case o.RandomReads < 1:
		return o, fmt.Errorf("bench: random reads must be at least 1, got %d", o.RandomReads)
	case o.BucketSize < 1 || o.BucketSize > MaxBucketSize():
		return o, fmt.Errorf("bench: bucket size must be 1 to %d, got %d", MaxBucketSize(), o.BucketSize)
	case o.BatchSize < 1:
		return o, fmt.Errorf("bench: batch size must be at least 1, got %d", o.BatchSize)
	}
	return o, nil
}
