package bench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
)

// smallRun is a Run on a conversation small enough for a unit test.
func smallRun(t *testing.T, target Target, opts Options) *Result {
	t.Helper()
	var stages []string
	res, err := Run(context.Background(), target, opts,
		func(stage string, done, total int) {
			if done > total {
				t.Errorf("progress %q: done %d above total %d", stage, done, total)
			}
			if len(stages) == 0 || stages[len(stages)-1] != stage {
				stages = append(stages, stage)
				t.Logf("%s: %s", time.Now().Format("15:04:05.000"), stage)
			}
		})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(stages) < 11 {
		t.Errorf("progress reported stages %q, want the write, storage and every read scenario of both layouts", stages)
	}
	return res
}

// TestEmbeddedCountsFollowFromLayouts checks round trips and documents, the
// figures that follow from the layouts, never times.
func TestEmbeddedCountsFollowFromLayouts(t *testing.T) {
	dir := t.TempDir()
	res := smallRun(t, Target{TempDir: dir, NoSync: true}, Options{Messages: 2000, Seed: 7, RandomReads: 200})
	checkCounts(t, res, expect{n: 2000, random: 200,
		// 1,851–1,950 starts inside bucket 18 and ends inside bucket 19.
		range100: counts{1, 2, false}, flat100: counts{1, 100, false},
		// 951–1,950 spans buckets 9..19: 11, within one find batch of 16.
		range1000: counts{1, 11, false}, flat1000: counts{1, 1000, false}})

	if got := res.Buckets.Storage.FileBytes; got == nil || *got <= 0 {
		t.Errorf("bucket layout file size = %v, want the bbolt file's size", got)
	}
	if got := res.Flat.Storage.FileBytes; got == nil || *got <= 0 {
		t.Errorf("flat layout file size = %v, want the bbolt file's size", got)
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("scratch files left behind: %v", left)
	}
}

// counts are the round trips and documents of one read. With atLeast, the
// round trips are a floor: a MongoDB cursor's first batch holds 101
// documents and how the server splits the rest is its own affair.
type counts struct {
	trips, docs int64
	atLeast     bool
}

// expect is what a run of n messages must cost where the ranges depend on n.
type expect struct {
	n, random                              int64
	range100, flat100, range1000, flat1000 counts
}

// checkCounts asserts what the layouts imply for e.n messages written in
// batches of 100 starting at seq 1.
func checkCounts(t *testing.T, res *Result, e expect) {
	t.Helper()
	n := e.n
	buckets := (n + 99) / 100
	cases := []struct {
		name       string
		b, f       Measure
		wantB, wnF counts
	}{
		// The newest 20 lie in the last bucket: one document against twenty.
		{"newest 20", res.Buckets.Reads.Newest20, res.Flat.Reads.Newest20, counts{1, 1, false}, counts{1, 20, false}},
		{"100 consecutive", res.Buckets.Reads.Range100, res.Flat.Reads.Range100, e.range100, e.flat100},
		{"1,000 consecutive", res.Buckets.Reads.Range1000, res.Flat.Reads.Range1000, e.range1000, e.flat1000},
		// One read per seq, whatever the layout.
		{"random single reads", res.Buckets.Reads.RandomSingle, res.Flat.Reads.RandomSingle,
			counts{e.random, e.random, false}, counts{e.random, e.random, false}},
		// Whole buckets against pages of 20.
		{"full scroll", res.Buckets.Reads.FullScroll, res.Flat.Reads.FullScroll, counts{buckets, buckets, false}, counts{n / 20, n, false}},
	}
	for _, c := range cases {
		if c.b.RoundTrips != c.wantB.trips || c.b.Documents != c.wantB.docs {
			t.Errorf("%s, buckets: %d round trips, %d documents; want %d, %d",
				c.name, c.b.RoundTrips, c.b.Documents, c.wantB.trips, c.wantB.docs)
		}
		tripsOK := c.f.RoundTrips == c.wnF.trips || c.wnF.atLeast && c.f.RoundTrips >= c.wnF.trips
		if !tripsOK || c.f.Documents != c.wnF.docs {
			t.Errorf("%s, flat: %d round trips, %d documents; want %d, %d",
				c.name, c.f.RoundTrips, c.f.Documents, c.wnF.trips, c.wnF.docs)
		}
		if c.b.Bytes <= 0 || c.f.Bytes <= 0 {
			t.Errorf("%s: bytes read %d (buckets), %d (flat), want both above 0", c.name, c.b.Bytes, c.f.Bytes)
		}
	}
	// A single read fetches that slot only where the backend can cut the
	// array: within twice the flat document's bytes. Elsewhere it reads the
	// whole bucket of 100 messages, which outweighs one flat document.
	rb, fb := res.Buckets.Reads.RandomSingle.Bytes, res.Flat.Reads.RandomSingle.Bytes
	switch res.SlotReads {
	case store.SlotsProjected.String():
		if rb > 2*fb {
			t.Errorf("random reads (%s): buckets read %d bytes, flat %d; want at most twice", res.SlotReads, rb, fb)
		}
	case store.SlotsWholeBucket.String():
		if rb <= fb {
			t.Errorf("random reads (%s): buckets read %d bytes, flat %d; whole buckets should cost more", res.SlotReads, rb, fb)
		}
	default:
		t.Errorf("random reads: slot reads %q, want projected or whole bucket", res.SlotReads)
	}
	// Writing a fresh bucket of 100: the update that misses, the insert, and
	// raising seq.max_seq. The flat layout: one insert per batch.
	if got := res.Buckets.Write.RoundTrips; got != 3*buckets {
		t.Errorf("bucket writes took %d round trips, want %d", got, 3*buckets)
	}
	if got := res.Flat.Write.RoundTrips; got != buckets {
		t.Errorf("flat writes took %d round trips, want %d", got, buckets)
	}
	if res.Buckets.Storage.Documents != buckets || res.Flat.Storage.Documents != n {
		t.Errorf("stored documents: %d buckets, %d flat; want %d, %d",
			res.Buckets.Storage.Documents, res.Flat.Storage.Documents, buckets, n)
	}
	if got := res.Ratios.Newest20.Documents; got != 20 {
		t.Errorf("newest 20 documents ratio = %v, want 20", got)
	}
}

func TestResultRendersAsTableAndJSON(t *testing.T) {
	res := smallRun(t, Target{TempDir: t.TempDir(), NoSync: true}, Options{Messages: 300, RandomReads: 50})
	var sb strings.Builder
	if err := res.WriteTable(&sb); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"newest page of 20", "random single reads", "full scroll", "round trips", "flat ÷ buckets", "file size"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, sb.String())
		}
	}
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"buckets", "flat", "ratios"} {
		if _, ok := back[key]; !ok {
			t.Errorf("JSON lacks %q: %s", key, raw)
		}
	}
	t.Log("\n" + sb.String())
}

func TestBadOptionsAreRefused(t *testing.T) {
	for _, o := range []Options{{Messages: -5}, {Conversation: "a:b"}, {BatchSize: -1}, {RandomReads: -1}} {
		if _, err := Run(context.Background(), Target{TempDir: t.TempDir()}, o, nil); err == nil {
			t.Errorf("Run(%+v) succeeded, want a clear error", o)
		}
	}
}

func TestScratchDirIsRemovedOnFailure(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, Target{TempDir: dir, NoSync: true}, Options{Messages: 500}, nil); err == nil {
		t.Fatal("Run with a cancelled context succeeded")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Errorf("scratch files left behind: %v", left)
	}
}

// TestTinyConversations runs conversations shorter than a page and than a
// bucket: every scenario reads what exists, and the full scroll reads all.
func TestTinyConversations(t *testing.T) {
	for _, n := range []int{1, 19, 150} {
		res := smallRun(t, Target{TempDir: t.TempDir(), NoSync: true}, Options{Messages: n, RandomReads: 5})
		if got := res.Flat.Reads.Newest20.Documents; got != int64(min(n, 20)) {
			t.Errorf("%d messages: newest page read %d flat documents, want %d", n, got, min(n, 20))
		}
		if got, want := res.Buckets.Reads.FullScroll.Documents, int64((n+99)/100); got != want {
			t.Errorf("%d messages: full scroll read %d buckets, want %d", n, got, want)
		}
		if got := res.Flat.Reads.FullScroll.Documents; got != int64(n) {
			t.Errorf("%d messages: full scroll read %d flat documents, want %d", n, got, n)
		}
	}
}

// TestNewestPageReadsItsSlots: a page inside one bucket is pulled as OpenIM
// pulls a few seqs (mgo/msg.go getMsgBySeqIndexIn1Doc projects only those
// slots), so the bucket layout reads about the bytes the flat one does, not
// the whole 100-slot bucket.
func TestNewestPageReadsItsSlots(t *testing.T) {
	res := smallRun(t, Target{TempDir: t.TempDir(), NoSync: true}, Options{Messages: 1000, RandomReads: 5})
	b, f := res.Buckets.Reads.Newest20, res.Flat.Reads.Newest20
	if b.RoundTrips != 1 || b.Bytes > 2*f.Bytes {
		t.Errorf("newest page of 20: buckets %d round trips, %d bytes; flat %d bytes: want 1 round trip and at most twice flat's bytes",
			b.RoundTrips, b.Bytes, f.Bytes)
	}
}

// TestEmbeddedReadsOnlyWhatIsAsked: in every read scenario the bucket
// layout reads within ×1.1 of the bytes of the messages asked (the flat
// layout's documents hold exactly those), ranges that start and end inside
// buckets included, in no more round trips than before.
func TestEmbeddedReadsOnlyWhatIsAsked(t *testing.T) {
	res := smallRun(t, Target{TempDir: t.TempDir(), NoSync: true}, Options{Messages: 2000, Seed: 7, RandomReads: 200})
	b, f := res.Buckets.Reads, res.Flat.Reads
	for _, sc := range []struct {
		name      string
		got, flat Measure
		trips     int64
	}{
		{"newest page of 20", b.Newest20, f.Newest20, 1},
		{"100 consecutive", b.Range100, f.Range100, 1},
		{"1,000 consecutive", b.Range1000, f.Range1000, 1},
		{"random single reads", b.RandomSingle, f.RandomSingle, 200},
		{"full scroll", b.FullScroll, f.FullScroll, 20},
	} {
		if float64(sc.got.Bytes) > 1.1*float64(sc.flat.Bytes) {
			t.Errorf("%s: %d bytes read for %d bytes of messages (×%.2f, want at most ×1.1)",
				sc.name, sc.got.Bytes, sc.flat.Bytes, float64(sc.got.Bytes)/float64(sc.flat.Bytes))
		}
		if sc.got.RoundTrips != sc.trips {
			t.Errorf("%s: %d round trips, want %d", sc.name, sc.got.RoundTrips, sc.trips)
		}
	}
}
