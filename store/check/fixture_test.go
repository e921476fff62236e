package check

import "github.com/chatlens/chatlens/store/check/checktest"

// The builders of demo-like buckets live in checktest, shared with the UI's
// tests; these short names keep check's tests readable.

const (
	alice = checktest.Alice
	bob   = checktest.Bob
	cid   = checktest.Cid
	docID = checktest.DocID
)

var (
	emptySlot    = checktest.EmptySlot
	cleanSlots   = checktest.CleanSlots
	bucketDoc    = checktest.Bucket
	cleanBucket  = checktest.CleanBucket
	with         = checktest.With
	withSlot     = checktest.WithSlot
	withMsgField = checktest.WithMsgField
	raw          = checktest.Raw
)
