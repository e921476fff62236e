package store

import (
	"errors"

	"github.com/chatlens/chatlens/store/bucket"
)

// ErrReadOnly is returned for any write attempted on a read-only store.
var ErrReadOnly = errors.New("read-only: writes are disabled")

// The backend contract is store/bucket's (contract.go), below both the
// store and the backends, so a backend imports the contract and not the
// store, and the store's Counter calls it downward. The store's callers
// know its names as the store's.
type (
	Backend      = bucket.Backend
	BucketReader = bucket.BucketReader
	BucketWriter = bucket.BucketWriter
	SeqRecorder  = bucket.SeqRecorder
	Directory    = bucket.Directory
	RawDocs      = bucket.RawDocs
	Lifecycle    = bucket.Lifecycle
	SeqRaise     = bucket.SeqRaise
	SlotValue    = bucket.SlotValue
	BucketSlots  = bucket.BucketSlots
	SlotRange    = bucket.SlotRange
	SlotRead     = bucket.SlotRead
	NewestRead   = bucket.NewestRead
	IndexInfo    = bucket.IndexInfo
	RawMode      = bucket.RawMode
	RawResult    = bucket.RawResult
	SlotReadMode = bucket.SlotReadMode
	Traffic      = bucket.Traffic
	Metered      = bucket.Metered
)

const (
	FieldMsg         = bucket.FieldMsg
	FieldRevoke      = bucket.FieldRevoke
	RawInsert        = bucket.RawInsert
	RawUpsert        = bucket.RawUpsert
	SlotsUnknown     = bucket.SlotsUnknown
	SlotsProjected   = bucket.SlotsProjected
	SlotsWholeBucket = bucket.SlotsWholeBucket
)

var (
	ErrDuplicateKey   = bucket.ErrDuplicateKey
	ErrOutcomeUnknown = bucket.ErrOutcomeUnknown
	ErrNotWritten     = bucket.ErrNotWritten
)
