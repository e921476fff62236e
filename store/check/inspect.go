package check

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
)

// Problem is one way a stored document breaks the storage contract.
type Problem struct {
	Kind   store.ProblemKind
	DocID  string // as stored, possibly hostile: sanitise before printing
	ID     string // _id as Extended JSON, to find a document whose doc_id is unusable
	Slot   int    // position in msgs, -1 for the whole document
	Seq    int64  // the seq the position encodes, 0 when unknown
	Reason string // one line, possibly quoting stored text
}

// Document is what inspecting one msg document found.
type Document struct {
	Bucket   *store.Bucket // as store.DecodeBucket reads it
	Slots    int           // elements of the stored msgs array
	Messages int           // positions holding a message
	Problems []Problem
}

// Inspect checks one raw msg document: its doc_id, the length of msgs, and
// every slot through store.CheckSlot. It never panics, whatever the bytes.
func Inspect(raw bson.Raw) Document {
	b := store.DecodeBucket(raw)
	d := Document{Bucket: b}
	docID, id := b.DocID, ""
	if docID == "" {
		if v, err := raw.LookupErr("_id"); err == nil {
			id = v.String()
		}
	}
	docProblem := func(kind store.ProblemKind, format string, args ...any) {
		d.Problems = append(d.Problems, Problem{Kind: kind, DocID: docID, ID: id, Slot: -1, Reason: fmt.Sprintf(format, args...)})
	}
	idVal, err := raw.LookupErr("doc_id")
	switch {
	case err != nil:
		docProblem(store.KindDocID, "doc_id is missing")
	case idVal.Type != bson.TypeString:
		docProblem(store.KindDocID, "doc_id is %s, not a string", idVal.Type)
	default:
		if _, _, err := store.ParseDocID(docID); err != nil {
			docProblem(store.KindDocID, "%s", err.Error())
		}
	}
	msgs, err := raw.LookupErr("msgs")
	if err != nil {
		docProblem(store.KindLength, "msgs is missing")
		return d
	}
	arr, ok := msgs.ArrayOK()
	if !ok {
		docProblem(store.KindLength, "msgs is %s, not an array", msgs.Type)
		return d
	}
	elems, err := arr.Values()
	if err != nil {
		docProblem(store.KindLength, "msgs is not a readable array: %v", err)
		return d
	}
	d.Slots = len(elems)
	if len(elems) != store.BucketSize {
		docProblem(store.KindLength, "msgs has %d slots, not %d", len(elems), store.BucketSize)
	}
	for i := 0; i < len(elems) && i < store.BucketSize; i++ {
		seq := b.Slots[i].Seq
		for _, p := range store.CheckSlot(elems[i], seq) {
			d.Problems = append(d.Problems, Problem{Kind: p.Kind, DocID: docID, ID: id, Slot: i, Seq: seq, Reason: p.Reason})
		}
		if !b.Slots[i].IsHole() {
			d.Messages++
		}
	}
	return d
}
