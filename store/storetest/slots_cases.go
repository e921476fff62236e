package storetest

import (
	"reflect"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check/checktest"
	"github.com/chatlens/chatlens/store/testkit"
)

// slotSets are the seqs asked of Slots: single slots, neighbours, both
// ends of a bucket, holes (seq 20, seqs past 30), the whole bucket, seqs
// in buckets that are not stored, and seqs over more buckets than Slots
// reads one by one.
var slotSets = [][]int64{{1}, {6}, {20}, {50}, {100}, {5, 6, 7}, {6, 99}, {99, 100, 101, 150}, {6, 150, 250, 399, 99}, seqsFrom(1, 100)}

func seqsFrom(from, to int64) []int64 {
	var out []int64
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

// testSlotsAsBuckets: reading a few slots gives, position by position,
// what reading their whole bucket gives, on a sound bucket with holes and
// on every malformed bucket of check's catalogue.
func testSlotsAsBuckets(e *fixture) {
	docs := []checktest.Case{{Name: "clean bucket", Doc: checktest.CleanBucket()}}
	docs = append(docs, checktest.Catalogue()...)
	cid := checktest.Cid
	each(e, docs, caseName, func(e *fixture, c checktest.Case) {
		if _, err := e.b.InsertRaw(e.ctx, bucket.CollMsg, []bson.Raw{checktest.Raw(c.Doc)}, store.RawUpsert); err != nil {
			e.t.Logf("%s: %s: not stored by this server, so never read: %v", e.name, c.Name, firstLine(err))
			return
		}
		ref := wholeReads{e: e, cid: cid, what: c.Name}
		for _, seqs := range slotSets {
			got, err := e.s.Slots(e.ctx, cid, seqs, 0)
			e.must(err, c.Name+": Slots")
			whole := ref.covering(slices.Min(seqs), slices.Max(seqs))
			for _, seq := range seqs {
				if !reflect.DeepEqual(got[seq], whole[seq]) {
					e.fatalf("%s: seq %d read alone: %+v (problem %q); read with its bucket: %+v (problem %q)",
						c.Name, seq, got[seq].Slot, got[seq].Problem, whole[seq].Slot, whole[seq].Problem)
				}
			}
		}
	})
}

func caseName(c checktest.Case) string { return c.Name }

// wholeReads is what Buckets gives for the buckets covering seqs, each set
// of buckets read once per case: the data does not change between the
// reads compared with it, and on FerretDB each read decodes whole buckets.
type wholeReads struct {
	e    *fixture
	cid  string
	what string
	read map[[2]int64]map[int64]bucket.StoredSlot
}

// covering is every stored slot, by seq, of the buckets covering from..to.
func (w *wholeReads) covering(from, to int64) map[int64]bucket.StoredSlot {
	key := [2]int64{bucket.BucketIndex(from), bucket.BucketIndex(to)}
	if got, ok := w.read[key]; ok {
		return got
	}
	bs, err := w.e.s.Buckets(w.e.ctx, w.cid, bucket.BucketsCovering(from, to), 0)
	w.e.must(err, w.what+": Buckets")
	whole := map[int64]bucket.StoredSlot{}
	for _, b := range bs {
		for _, st := range b.Slots {
			whole[st.Seq] = st
		}
	}
	if w.read == nil {
		w.read = map[[2]int64]map[int64]bucket.StoredSlot{}
	}
	w.read[key] = whole
	return whole
}

// testSlotsReadLittle: one slot read where the backend cuts the array
// crosses the wire as that slot only, and the backend says which way it
// reads.
func testSlotsReadLittle(e *fixture) {
	raw := checktest.Raw(checktest.CleanBucket())
	testkit.Insert(e.t, e.b, bucket.CollMsg, raw)
	got, sliced, err := e.b.FindSlots(e.ctx, checktest.DocID, 5, 1)
	e.must(err, "FindSlots")
	mode := e.b.SlotReads()
	e.t.Logf("%s: %s", e.name, mode)
	switch {
	case sliced && mode != store.SlotsProjected:
		e.errorf("FindSlots cut the array but SlotReads says %q", mode)
	case !sliced && mode != store.SlotsWholeBucket:
		e.errorf("FindSlots read the whole bucket but SlotReads says %q", mode)
	case sliced && len(got) > len(raw)/10:
		e.errorf("one slot read as %d bytes of a %d-byte bucket", len(got), len(raw))
	}
	missing, _, err := e.b.FindSlots(e.ctx, checktest.Cid+":7", 0, 1)
	e.must(err, "FindSlots of a bucket not stored")
	if missing != nil {
		e.errorf("a bucket not stored read as %d bytes", len(missing))
	}
}

func firstLine(err error) string {
	msg := err.Error()
	if len(msg) > 120 {
		msg = msg[:120] + "…"
	}
	return msg
}

// rangeSets are the ranges asked of Range: inside one bucket, one whole
// bucket, across a bucket edge, whole buckets with partial ones at both
// ends, and ranges reaching buckets that are not stored.
var rangeSets = [][2]int64{{5, 7}, {1, 100}, {99, 101}, {6, 150}, {50, 250}, {100, 200}, {150, 400}}

// testRangeAsBuckets: a range read, its edge buckets cut to the slots in
// range, gives position by position what reading the whole buckets gives,
// with every malformed bucket of check's catalogue at one edge and a sound
// bucket at the other, in as many round trips as Buckets takes.
func testRangeAsBuckets(e *fixture) {
	docs := []checktest.Case{{Name: "clean bucket", Doc: checktest.CleanBucket()}}
	docs = append(docs, checktest.Catalogue()...)
	cid := checktest.Cid
	next := checktest.Raw(checktest.Bucket(cid+":1", checktest.CleanSlots()))
	each(e, docs, caseName, func(e *fixture, c checktest.Case) {
		_, err := e.b.InsertRaw(e.ctx, bucket.CollMsg, []bson.Raw{next}, store.RawUpsert)
		e.must(err, "the bucket after")
		if _, err := e.b.InsertRaw(e.ctx, bucket.CollMsg, []bson.Raw{checktest.Raw(c.Doc)}, store.RawUpsert); err != nil {
			e.t.Logf("%s: %s: not stored by this server, so never read: %v", e.name, c.Name, firstLine(err))
			return
		}
		ref := wholeReads{e: e, cid: cid, what: c.Name}
		for _, r := range rangeSets {
			before := e.s.Stats().RoundTrips
			got, err := e.s.Range(e.ctx, cid, r[0], r[1], 0)
			e.must(err, c.Name+": Range")
			if trips := e.s.Stats().RoundTrips - before; trips != 1 {
				e.errorf("%s: range %d–%d read in %d round trips, Buckets reads it in 1", c.Name, r[0], r[1], trips)
			}
			whole := ref.covering(r[0], r[1])
			if len(got) != int(r[1]-r[0]+1) {
				e.errorf("%s: range %d–%d gave %d positions", c.Name, r[0], r[1], len(got))
			}
			for seq := r[0]; seq <= r[1]; seq++ {
				if !reflect.DeepEqual(got[seq], whole[seq]) {
					e.fatalf("%s: seq %d read in range %d–%d: %+v (problem %q); read with its bucket: %+v (problem %q)",
						c.Name, seq, r[0], r[1], got[seq].Slot, got[seq].Problem, whole[seq].Slot, whole[seq].Problem)
				}
			}
		}
	})
}

// testSlotRangesReadLittle: the edge buckets of a range cross the wire cut
// to their slots where the backend cuts arrays, whole otherwise; a whole
// bucket asked comes whole, one not stored as nothing, in the order asked.
func testSlotRangesReadLittle(e *fixture) {
	raw := checktest.Raw(checktest.CleanBucket())
	testkit.Insert(e.t, e.b, bucket.CollMsg, raw)
	testkit.Insert(e.t, e.b, bucket.CollMsg, checktest.Raw(checktest.Bucket(checktest.Cid+":1", checktest.CleanSlots())))
	ranges := []store.SlotRange{{DocID: checktest.Cid + ":1", First: 0, N: 2}, {DocID: checktest.Cid + ":7", First: 3, N: 4},
		{DocID: checktest.DocID, First: 0, N: bucket.BucketSize}}
	got, err := e.b.FindSlotRanges(e.ctx, ranges)
	e.must(err, "FindSlotRanges")
	if len(got) != len(ranges) {
		e.fatalf("%d ranges asked, %d answered", len(ranges), len(got))
	}
	e.t.Logf("%s: first range sliced %v (%d bytes of a %d-byte bucket)", e.name, got[0].Sliced, len(got[0].Raw), len(raw))
	switch {
	case got[0].Raw == nil:
		e.errorf("a stored bucket's range read as nothing")
	case got[0].Sliced && len(got[0].Raw) > len(raw)/5:
		e.errorf("two slots read as %d bytes of a %d-byte bucket", len(got[0].Raw), len(raw))
	case !got[0].Sliced && len(got[0].Raw) < len(raw):
		e.errorf("a bucket said to be whole read as %d bytes of %d", len(got[0].Raw), len(raw))
	case got[1].Raw != nil:
		e.errorf("a bucket not stored read as %d bytes", len(got[1].Raw))
	case got[2].Sliced || len(got[2].Raw) != len(raw):
		e.errorf("the whole bucket asked read as %d bytes of %d (sliced %v)", len(got[2].Raw), len(raw), got[2].Sliced)
	}
	if e.b.SlotReads() == store.SlotsProjected && e.name == "embedded" && !got[0].Sliced {
		e.errorf("the embedded store read a range's edge bucket whole")
	}
}
