package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bench"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/rediscache"
)

// dump reads the buckets at a range's edges cut to the seqs in it: what it
// prints must be what reading them whole prints, for every range, and what
// it reads must be about the slots asked.

// wholeBuckets answers every range read with whole buckets, as a server
// without $slice does: the reads dump made before it cut the edges.
type wholeBuckets struct{ store.Backend }

func (b wholeBuckets) FindSlotRanges(ctx context.Context, ranges []store.SlotRange) ([]store.SlotRead, error) {
	ids := make([]string, len(ranges))
	for i, r := range ranges {
		ids[i] = r.DocID
	}
	raws, err := b.FindBuckets(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := map[string]bson.Raw{}
	for _, raw := range raws {
		byID[raw.Lookup("doc_id").StringValue()] = raw
	}
	out := make([]store.SlotRead, len(ranges))
	for i, r := range ranges {
		out[i] = store.SlotRead{Raw: byID[r.DocID]}
	}
	return out, nil
}

// dumpOn runs dump with the flags of c on st: what it prints, what it
// says on stderr, and its error.
func dumpOn(t *testing.T, st *store.Store, c dumpCmd) string {
	t.Helper()
	var out, errs bytes.Buffer
	s := &session{process: testProcess(strings.NewReader(""), &out, &errs), conn: &connection{UTC: true}, cmd: "dump", st: st}
	err := c.dump(t.Context(), s, st)
	// A transcript says when it was captured: the one line two dumps differ in.
	printed := captured.ReplaceAllString(out.String(), "${1}(the time of the dump)")
	return fmt.Sprintf("%s\n--- stderr\n%s\n--- error %v", printed, errs.String(), err)
}

var captured = regexp.MustCompile(`(Captured.{0,80}?)\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`)

// firstDifference is the first line where got and want differ, with its
// number.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		gl, wl := "(none)", "(none)"
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d: read cut\n%s\nread whole\n%s", i+1, gl, wl)
		}
	}
	return ""
}

// storeOf is a store over b, with the cache at redis when not "".
func storeOf(t *testing.T, b store.Backend, redis string, findBatch int) *store.Store {
	t.Helper()
	var opts store.Options
	if redis != "" {
		// A reply later than the cache's default timeout is a miss, and a
		// row said read from the store instead: seen with the CPUs busy.
		rc, err := rediscache.Open(t.Context(), redis, rediscache.Options{Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = rc.Close() })
		opts.Cache = rc
	}
	st := store.New(b, opts)
	st.FindBatch = findBatch
	return st
}

// copyStore copies every collection of from into to, only the msg
// documents keep keeps.
func copyStore(t *testing.T, from, to store.Backend, keep func(docID string) bool) {
	t.Helper()
	for _, coll := range recordedCollections {
		var docs []bson.Raw
		err := from.ScanRaw(t.Context(), coll, "", func(raw bson.Raw) error {
			if id, _ := raw.Lookup("doc_id").StringValueOK(); coll != bucket.CollMsg || keep(id) {
				docs = append(docs, slices.Clone(raw))
			}
			return nil
		})
		if err == nil && len(docs) > 0 {
			_, err = to.InsertRaw(t.Context(), coll, docs, store.RawInsert)
		}
		if err != nil {
			t.Fatalf("copy %s: %v", coll, err)
		}
	}
}

// edgeCase is one dump to compare.
type edgeCase struct {
	cid, as  string
	from, to int64
}

// edgeCases are the ranges to dump of every conversation of b, each for
// one of its members in turn (and one stranger): a range of one seq, ones
// with edges inside buckets and on their boundaries, the whole
// conversation, ones starting just after a quoted seq (the quote reaches
// into the part of the first bucket not read) or on it, and random ones.
func edgeCases(t *testing.T, b store.Backend, random int) []edgeCase {
	t.Helper()
	ctx := t.Context()
	members := map[string][]string{}
	err := b.ScanRaw(ctx, bucket.CollConversation, "", func(raw bson.Raw) error {
		c := bucket.DecodeConversation(raw)
		members[c.ConversationID] = append(members[c.ConversationID], c.OwnerUserID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cids := slices.Sorted(func(yield func(string) bool) {
		for cid := range members {
			if !yield(cid) {
				return
			}
		}
	})
	recs, err := b.SeqRecords(ctx, cids)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 9))
	var out []edgeCase
	for _, rec := range recs {
		cid, maxSeq := rec.ConversationID, rec.MaxSeq
		if maxSeq <= 0 {
			continue
		}
		viewers := append(slices.Sorted(slices.Values(members[cid])), "nobody")
		var ranges [][2]int64
		for _, k := range []int64{1, 2, 50, 99, 100, 101, 102, 150, 199, 200, 201, 250, maxSeq - 1, maxSeq} {
			if k >= 1 && k <= maxSeq {
				ranges = append(ranges, [2]int64{k, k}, [2]int64{k, maxSeq}, [2]int64{1, k}, [2]int64{k, min(k+30, maxSeq)})
			}
		}
		ranges = append(ranges, [2]int64{10, 40}, [2]int64{110, 190}, [2]int64{101, 200}, [2]int64{100, 101}, [2]int64{150, 250}, [2]int64{99, 201})
		for _, q := range quotesOf(t, b, cid, maxSeq) {
			quoting, quoted := q[0], q[1]
			ranges = append(ranges, [2]int64{quoted + 1, quoting}, [2]int64{quoted, quoting}, [2]int64{quoted + 1, quoting + 3},
				[2]int64{quoting, quoting}, [2]int64{bucket.FirstSeq(bucket.BucketIndex(quoting)) + 1, quoting})
		}
		for range random {
			from := 1 + rng.Int64N(maxSeq)
			ranges = append(ranges, [2]int64{from, from + rng.Int64N(maxSeq-from+1)})
		}
		for i, r := range ranges {
			if r[0] >= 1 && r[0] <= r[1] && r[1] <= maxSeq {
				out = append(out, edgeCase{cid, viewers[i%len(viewers)], r[0], r[1]})
			}
		}
	}
	return out
}

// quotesOf lists the quotes stored in cid: each as the quoting seq and
// the quoted one.
func quotesOf(t *testing.T, b store.Backend, cid string, maxSeq int64) [][2]int64 {
	t.Helper()
	bs, err := store.New(b, store.Options{}).Buckets(t.Context(), cid, bucket.BucketsCovering(1, maxSeq), 0)
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]int64
	for _, bk := range bs {
		for _, s := range bk.Slots {
			if quoted, ok := projection.QuotedBy(s); ok {
				out = append(out, [2]int64{s.Seq, quoted})
			}
		}
	}
	return out
}

// everyNth is n of cases, spread over them (FerretDB scans a collection on
// every read: a few dumps there).
func everyNth(cases []edgeCase, n int) []edgeCase {
	var out []edgeCase
	for i := range n {
		if k := i * len(cases) / n; k < len(cases) {
			out = append(out, cases[k])
		}
	}
	return out
}

// compareDumps dumps every case on cut (b as it is) and on whole (b
// answering whole buckets), in text, json and in turn the other formats,
// reading findBatches buckets a find (1: a range of two buckets is walked
// through the doc_id index), and fails on the first output that differs.
// It returns the cases dumped.
func compareDumps(t *testing.T, b store.Backend, redis string, cases []edgeCase, findBatches ...int) int {
	t.Helper()
	if raceBuild {
		// Output against output finds no race: a third of the cases keeps
		// the race detector's run of this (CI's) in minutes; go test
		// without -race dumps them all.
		cases = everyNth(cases, max(1, len(cases)/3))
	}
	formats := []string{"text", "json", "markdown", "html"}
	for _, findBatch := range findBatches {
		cut, whole := storeOf(t, b, redis, findBatch), storeOf(t, wholeBuckets{b}, redis, findBatch)
		for i, c := range cases {
			cmd := dumpCmd{Conversation: c.cid, As: c.as, From: c.from, To: c.to, Format: formats[i%len(formats)], Explain: i%3 == 0}
			got, want := dumpOn(t, cut, cmd), dumpOn(t, whole, cmd)
			if got != want {
				t.Fatalf("dump --conversation %s --as %s --from %d --to %d --format %s --explain=%v (find batch %d), %s",
					c.cid, c.as, c.from, c.to, cmd.Format, cmd.Explain, findBatch, firstDifference(got, want))
			}
			if cmd.Format != "json" { // json and text differ most in holes: both for every case
				cmd.Format = "json"
				if got, want := dumpOn(t, cut, cmd), dumpOn(t, whole, cmd); got != want {
					t.Fatalf("dump --conversation %s --as %s --from %d --to %d --format json --explain=%v (find batch %d), %s",
						c.cid, c.as, c.from, c.to, cmd.Explain, findBatch, firstDifference(got, want))
				}
			}
		}
	}
	return len(cases)
}

// demoWithGaps is the test demo with one bucket of the long group left
// out (a gap between stored buckets), its msg documents only those of the
// conversations in (all when none).
func demoWithGaps(t *testing.T, to store.Backend, in ...string) {
	t.Helper()
	from, err := embedded.Open(template, embedded.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer from.Close(context.Background())
	copyStore(t, from, to, func(docID string) bool {
		cid, _, _ := bucket.ParseDocID(docID)
		return docID != demo.LongGroupID+":1" && (len(in) == 0 || slices.Contains(in, cid))
	})
}

func openEmbedded(t *testing.T) *embedded.Backend {
	t.Helper()
	b, err := embedded.Open(filepath.Join(t.TempDir(), "edges.db"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	return b
}

func TestDumpReadingEdgesCutPrintsWhatWholeBucketsPrint(t *testing.T) {
	t.Parallel()
	t.Run("demo", func(t *testing.T) {
		t.Parallel()
		b := openEmbedded(t)
		demoWithGaps(t, b)
		t.Logf("%d cases", compareDumps(t, b, "", edgeCases(t, b, 25), 16, 1))
	})
	t.Run("recording", func(t *testing.T) {
		t.Parallel()
		dir := recording(t)
		r := importRecording(t, dir, []string{"--data", filepath.Join(t.TempDir(), "recorded.db")})
		b, err := embedded.Open(r.conn[1], embedded.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close(context.Background())
		cases := edgeCases(t, b, 10)
		for _, as := range recordedUsers { // every recorded user, in every conversation
			for _, c := range everyNth(cases, 12) {
				cases = append(cases, edgeCase{c.cid, as, c.from, c.to})
			}
		}
		t.Logf("%d cases", compareDumps(t, b, "", cases, 16, 1))
		t.Logf("%d cases with Redis", compareDumps(t, b, recordedRedis(t, dir), cases, 16))
	})
}

func TestDumpReadingEdgesCutOnMongoDB(t *testing.T) {
	t.Parallel()
	uri, _ := mongotest.URI(t)
	t.Run("demo", func(t *testing.T) {
		t.Parallel()
		b, err := mongostore.Open(t.Context(), uri, mongotest.Database(t, uri), mongostore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close(context.Background())
		demoWithGaps(t, b, demo.LongGroupID, demo.ShowcaseSingleID)
		cases := slices.DeleteFunc(edgeCases(t, b, 0), func(c edgeCase) bool {
			return c.cid != demo.LongGroupID && c.cid != demo.ShowcaseSingleID
		})
		t.Logf("%d cases", compareDumps(t, b, "", everyNth(cases, 8), 16))
		readsOnlyTheSlotsAsked(t, b, b.SlotReads() == store.SlotsProjected)
	})
	t.Run("recording", func(t *testing.T) {
		t.Parallel()
		dir := recording(t)
		db := mongotest.Database(t, uri)
		importRecording(t, dir, []string{"--mongo-uri", uri, "--db", db})
		b, err := mongostore.Open(t.Context(), uri, db, mongostore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close(context.Background())
		t.Logf("%d cases", compareDumps(t, b, recordedRedis(t, dir), everyNth(edgeCases(t, b, 0), 8), 16))
	})
}

// TestDumpReadsOnlyTheSlotsAsked: dump of a range inside buckets reads
// about the bytes of its slots, not the buckets holding them, in the
// round trips reading them whole takes.
func TestDumpReadsOnlyTheSlotsAsked(t *testing.T) {
	t.Parallel()
	b := openEmbedded(t)
	demoWithGaps(t, b)
	readsOnlyTheSlotsAsked(t, b, true)
}

// readsOnlyTheSlotsAsked dumps ranges inside the first bucket of the long
// group of the demo b holds: in the round trips reading whole buckets
// takes, reading (cuts: the backend cuts buckets) about the bytes of the
// slots asked, else the bytes of whole buckets.
func readsOnlyTheSlotsAsked(t *testing.T, b store.Backend, cuts bool) {
	ctx := t.Context()
	const cid = demo.LongGroupID
	convs, err := b.ConversationsByID(ctx, cid)
	if err != nil || len(convs) == 0 {
		t.Fatalf("the long group's members: %v", err)
	}
	as := convs[0].OwnerUserID
	raws, err := b.FindBuckets(ctx, []string{cid + ":0", cid + ":2"})
	if err != nil || len(raws) != 2 {
		t.Fatalf("the long group's buckets 0 and 2: %d, %v", len(raws), err)
	}
	// The slots a range asks, in bytes as stored.
	slotBytes := func(from, to int64) int64 {
		var n int64
		for _, raw := range raws {
			elems, _ := raw.Lookup("msgs").Array().Values()
			idx := bucket.BucketIndex(from)
			if id := raw.Lookup("doc_id").StringValue(); id != bucket.DocID(cid, idx) {
				continue
			}
			for seq := from; seq <= to; seq++ {
				n += int64(len(elems[bucket.SlotIndex(seq)].Value))
			}
		}
		return n
	}
	for _, r := range [][2]int64{{10, 40}, {60, 61}, {2, 99}} { // inside bucket 0; the newest is read by the windows

		from, to := r[0], r[1]
		// What dump reads beyond its range: the windows (the newest bucket).
		counting := bench.NewCounting(b)
		if _, err := store.New(counting, store.Options{}).Windows(ctx, as, []string{cid}, nil); err != nil {
			t.Fatal(err)
		}
		windows := counting.Counts()
		for _, format := range []string{"text", "json"} {
			cut, whole := bench.NewCounting(b), bench.NewCounting(wholeBuckets{b})
			cmd := dumpCmd{Conversation: cid, As: as, From: from, To: to, Format: format}
			dumpOn(t, store.New(cut, store.Options{}), cmd)
			dumpOn(t, store.New(whole, store.Options{}), cmd)
			got, was := cut.Counts().Sub(windows), whole.Counts().Sub(windows)
			asked := slotBytes(from, to)
			if format == "json" { // the hole times read the first bucket from its start
				asked = slotBytes(bucket.FirstSeq(bucket.BucketIndex(from)), to) + slotBytes(from, to)
			}
			t.Logf("dump --from %d --to %d --format %s: %d bytes read for %d bytes of slots asked (whole buckets: %d); %d round trips (whole: %d)",
				from, to, format, got.Bytes, asked, was.Bytes, got.RoundTrips, was.RoundTrips)
			if !cuts && got.Bytes != was.Bytes {
				t.Errorf("dump --from %d --to %d --format %s read %d bytes, %d reading whole buckets", from, to, format, got.Bytes, was.Bytes)
			}
			if cuts && float64(got.Bytes) > 1.1*float64(asked) {
				t.Errorf("dump --from %d --to %d --format %s read %d bytes for %d bytes of slots asked", from, to, format, got.Bytes, asked)
			}
			if got.RoundTrips != was.RoundTrips {
				t.Errorf("dump --from %d --to %d --format %s took %d round trips, %d reading whole buckets", from, to, format, got.RoundTrips, was.RoundTrips)
			}
		}
	}
}
