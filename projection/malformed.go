package projection

import (
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// A bucket that breaks the contract as a whole (msgs missing, not an
// array, not 100 slots, a doc_id of no "<conversation>:<index>" form) is
// named the same way wherever it shows: above its first row in the UI and
// in a text dump, in the text of a transcript's row, in the "malformed"
// field of dump's JSON.

// BucketProblem is why b breaks the contract as a whole, its problems
// joined; "" for a sound bucket or none.
func BucketProblem(b *bucket.Bucket) string {
	if b == nil || len(b.Problems) == 0 {
		return ""
	}
	return SingleLine(strings.Join(b.Problems, "; "))
}

// MalformedBucket names bucket docID and its problem: "malformed bucket
// si_alice_bob:1: msgs is string, not an array".
func MalformedBucket(docID, problem string) string {
	return "malformed bucket " + SingleLine(docID) + ": " + SingleLine(problem)
}

// MalformedBucketLine is MalformedBucket as a line of its own, marked as
// every broken thing is: "! malformed bucket si_alice_bob:1: ...".
func MalformedBucketLine(docID, problem string) string {
	return "! " + MalformedBucket(docID, problem)
}

// ViewIn is View of slot of bucket b, carrying b's problem as a whole
// (Message.BucketProblem) for the outputs that name it.
func ViewIn(b *bucket.Bucket, slot bucket.StoredSlot, viewer string, conv Conv, quoted bucket.Lookup) Message {
	m := View(slot, b.DocID, viewer, conv, quoted)
	m.BucketProblem = BucketProblem(b)
	return m
}
