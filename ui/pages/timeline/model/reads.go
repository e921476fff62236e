package model

import (
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
)

// ReadKind is what a read asks the store.
type ReadKind int

const (
	// ReadBuckets reads Indexes whole, in one find. When the last of them
	// in the direction Dir is not stored, the read goes on to the nearest
	// stored bucket beyond it (the doc_id index says which), so a run of
	// missing buckets costs one step however long it is.
	ReadBuckets ReadKind = iota
	// ReadMembers reads the conversation's members, in the order the
	// viewer picker lists them.
	ReadMembers
	// ReadWindow reads Viewer's window of the conversation; Second says it
	// is the compare view's second side, not a viewer to switch to.
	ReadWindow
	// ReadScan reads Indexes whole, for the compare view's scan: the
	// buckets and a lookup of the slots their quotes quote (Landed.Lookup).
	// Scan is the scan's number.
	ReadScan
	// ReadSearch reads the next step of search Search: Query matched
	// against what Viewer sees, outwards from Seq (where it started), as
	// far as one step goes (Landed.Hits). The model asks for the next step
	// when one lands, until the hits cover the window.
	ReadSearch
	// ReadDate finds the first seq From..To sent at or after At (ms):
	// Landed.Seq, 0 when none.
	ReadDate
	// ReadMoment reads Viewer's window at At (ms) back from the whole
	// conversation and the evidence the store keeps: Landed.Then.
	ReadMoment
)

// Read is a read the model wants. Gen is the model's generation when it
// asked: a read landing after a reload is dropped.
type Read struct {
	Kind    ReadKind
	Indexes []int64
	Dir     int64
	Viewer  string
	Second  bool
	Scan    int
	Gen     int
	Query   string // ReadSearch
	Seq     int64  // ReadSearch: where the search started
	Search  int    // ReadSearch: the search's number
	At      int64  // ReadDate, ReadMoment
	From    int64  // ReadDate
	To      int64  // ReadDate
}

// Landed is a read's answer.
type Landed struct {
	Read    Read
	Buckets []*bucket.Bucket // stored buckets read (a bucket not stored is not among them)
	Absent  [][2]int64       // runs of bucket indexes found not stored, lo..hi
	Members []string         // ReadMembers: the user IDs, in the picker's order
	Window  bucket.Window    // ReadWindow
	Lookup  bucket.Lookup    // ReadScan: the slots quoted, for the rows of "differences only"
	Seq     int64            // ReadDate: the seq found, 0 when none
	Hits    Hits             // ReadSearch: the hits of this step (Seqs), the seqs scanned so far (From..To), Done
	Then    projection.Then  // ReadMoment
	Err     error
}
