package check

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// Problem is one way a stored document breaks the storage contract.
type Problem struct {
	Kind   bucket.ProblemKind
	DocID  string // as stored, possibly hostile: sanitise before printing
	ID     string // _id as Extended JSON, to find a document whose doc_id is unusable
	Slot   int    // position in msgs, -1 for the whole document
	Seq    int64  // the seq the position encodes, 0 when unknown
	Reason string // one line, possibly quoting stored text
}

// Document is what inspecting one msg document found.
type Document struct {
	Bucket   *bucket.Bucket // as bucket.DecodeBucket reads it
	Slots    int            // elements of the stored msgs array
	Messages int            // positions holding a message
	Problems []Problem
}

// Inspect checks one raw msg document: its doc_id, the length of msgs, and
// every slot through bucket.CheckSlot. It never panics, whatever the bytes.
func Inspect(raw bson.Raw) Document {
	b := bucket.DecodeBucket(raw)
	d := Document{Bucket: b}
	docID, id := b.DocID, ""
	if docID == "" {
		if v, err := raw.LookupErr("_id"); err == nil {
			id = v.String()
		}
	}
	docProblem := func(kind bucket.ProblemKind, format string, args ...any) {
		d.Problems = append(d.Problems, Problem{Kind: kind, DocID: docID, ID: id, Slot: -1, Reason: fmt.Sprintf(format, args...)})
	}
	for _, k := range bucket.DuplicateFields(raw) {
		docProblem(bucket.KindDuplicate, "field %s appears more than once (readers take the first)", bucket.EscapeUntrusted(k, 40))
	}
	idVal, err := raw.LookupErr("doc_id")
	switch {
	case err != nil:
		docProblem(bucket.KindDocID, "doc_id is missing")
	case idVal.Type != bson.TypeString:
		docProblem(bucket.KindDocID, "doc_id is %s, not a string", idVal.Type)
	default:
		if _, _, err := bucket.ParseDocID(docID); err != nil {
			docProblem(bucket.KindDocID, "%s", err.Error())
		}
	}
	msgs, err := raw.LookupErr("msgs")
	if err != nil {
		docProblem(bucket.KindLength, "msgs is missing")
		return d
	}
	arr, ok := msgs.ArrayOK()
	if !ok {
		docProblem(bucket.KindLength, "msgs is %s, not an array", msgs.Type)
		return d
	}
	elems, err := arr.Values()
	if err != nil {
		docProblem(bucket.KindLength, "msgs is not a readable array: %v", err)
		return d
	}
	d.Slots = len(elems)
	if len(elems) != bucket.BucketSize {
		docProblem(bucket.KindLength, "msgs has %d slots, not %d", len(elems), bucket.BucketSize)
	}
	for i := 0; i < len(elems) && i < bucket.BucketSize; i++ {
		seq := b.Slots[i].Seq
		for _, p := range bucket.CheckSlot(elems[i], seq) {
			d.Problems = append(d.Problems, Problem{Kind: p.Kind, DocID: docID, ID: id, Slot: i, Seq: seq, Reason: p.Reason})
		}
		if !b.Slots[i].IsHole() {
			d.Messages++
		}
	}
	return d
}
