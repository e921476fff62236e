package timeline

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/uitest"
)

// Scrolling a whole conversation from its newest message to its oldest, one
// page at a time through the key bindings: every bucket is read exactly once
// (the newest by the conversation list, which the timeline reuses), no more
// than a screen and the prefetch is ever held, and the heap ends where it
// started. 100,000 messages in the normal run (20,000 under -race, which
// slows decoding tenfold); CHATLENS_LONG=1 scrolls 1,000,000.

// bucketCounter counts the reads of each bucket of one conversation in a
// slice sized up front, so counting allocates nothing while the heap is
// watched.
type bucketCounter struct {
	store.Backend
	cid   string
	mu    sync.Mutex
	reads []int32 // by bucket index
	other int     // reads of doc_ids outside the conversation
}

func (c *bucketCounter) FindBuckets(ctx context.Context, ids []string) ([]bson.Raw, error) {
	c.mu.Lock()
	for _, id := range ids {
		cid, idx, err := bucket.ParseDocID(id)
		if err != nil || cid != c.cid || idx >= int64(len(c.reads)) {
			c.other++
			continue
		}
		c.reads[idx]++
	}
	c.mu.Unlock()
	return c.Backend.FindBuckets(ctx, ids)
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func TestScrollingAWholeConversation(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1,000 buckets")
	}
	n := 100_000
	switch {
	case os.Getenv("CHATLENS_LONG") == "1":
		n = 1_000_000
	case uitest.RaceDetector:
		n = 20_000
	}
	const cid = "sg_long"
	st, tb := uitest.NewStore(t, false)
	uitest.WriteLongConversation(t, st, cid, n)
	buckets := n / bucket.BucketSize
	counter := &bucketCounter{Backend: tb.Backend, cid: cid, reads: make([]int32, buckets)}
	st = store.New(counter, store.Options{})

	debug.FreeOSMemory() // the writing is not what is measured
	resetPeakRSS(t)
	d := newPage(t, st, "alice", 66, 120) // narrow: the timeline alone
	d.open(cid)
	startHeap := liveHeap()
	peakHeap, peakAnon := startHeap, procStatus()["RssAnon"]

	lowest := int64(n) // the oldest seq any screen has shown
	maxHeld := 0
	for step := 0; ; step++ {
		if step > n {
			t.Fatal("paging never reached seq 1")
		}
		screen := uitest.SeqsOnScreen(d.view())
		if len(screen) == 0 {
			t.Fatalf("step %d: no messages on screen:\n%s", step, d.view())
		}
		for i := 1; i < len(screen); i++ {
			if screen[i] != screen[i-1]+1 {
				t.Fatalf("screen shows seq %d after %d:\n%s", screen[i], screen[i-1], d.view())
			}
		}
		// Screens overlap or touch: no seq is skipped on the way up.
		if screen[len(screen)-1] < lowest-1 {
			t.Fatalf("step %d: screen ends at seq %d but the previous began at %d", step, screen[len(screen)-1], lowest)
		}
		lowest = min(lowest, screen[0])
		maxHeld = max(maxHeld, len(heldBuckets(d.tl)))
		if step%(buckets/20+1) == 0 {
			peakHeap = max(peakHeap, liveHeap())
			peakAnon = max(peakAnon, procStatus()["RssAnon"])
		}
		if d.tl.Cursor() == 1 {
			break
		}
		d.keys("pgup")
	}
	endHeap := liveHeap()
	if lowest != 1 {
		t.Errorf("the oldest seq shown is %d, want 1", lowest)
	}
	for idx, c := range counter.reads {
		if c != 1 {
			t.Errorf("bucket %d read %d times, want once", idx, c)
		}
	}
	if got := d.tl.fetched; got != buckets-1 {
		t.Errorf("timeline fetched %d buckets, want %d (all but the newest, which the list read)", got, buckets-1)
	}
	if maxHeld > 2*keepBuckets+1 {
		t.Errorf("held up to %d buckets at once, the cap is %d", maxHeld, 2*keepBuckets+1)
	}
	// Holding what was scrolled past would grow the heap by the decoded
	// size of every bucket (megabytes per thousand messages).
	if endHeap > 2*startHeap+1<<20 {
		t.Errorf("heap grew from %d to %d bytes over the scroll: memory is not flat", startHeap, endHeap)
	}
	end := procStatus()
	t.Logf("%d messages, %d buckets: each read once, at most %d held; live heap start %.2f MiB, peak %.2f MiB, end %.2f MiB; "+
		"peak RSS (VmHWM) %.1f MiB, at the end %.1f MiB file-backed (the bbolt file mapped in) and %.1f MiB anonymous (sampled peak %.1f MiB)",
		n, buckets, maxHeld, mib(startHeap), mib(peakHeap), mib(endHeap),
		kib(end["VmHWM"]), kib(end["RssFile"]), kib(end["RssAnon"]), kib(max(peakAnon, end["RssAnon"])))
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// resetPeakRSS starts VmHWM again from the current RSS (Linux only).
func resetPeakRSS(t *testing.T) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Logf("peak RSS not reset: %v", err)
	}
}

func kib(kb uint64) float64 { return float64(kb) / 1024 }

// procStatus is the memory lines of /proc/self/status in kB (empty off
// Linux): VmHWM is the peak resident set, which counts the pages of the
// bbolt file mapped in as they are read (RssFile) as well as the heap.
func procStatus() map[string]uint64 {
	out := map[string]uint64{}
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(raw), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if f := strings.Fields(v); ok && len(f) == 2 && f[1] == "kB" {
			out[k], _ = strconv.ParseUint(f[0], 10, 64)
		}
	}
	return out
}

// Scrolling up and back down re-reads a bucket only when it had been
// dropped: no key press ever fetches a bucket that was held.
func TestScrollingBackRereadsOnlyDroppedBuckets(t *testing.T) {
	const cid, n = "sg_long", 3000
	st, tb := uitest.NewStore(t, false)
	uitest.WriteLongConversation(t, st, cid, n)
	counter := &bucketCounter{Backend: tb.Backend, cid: cid, reads: make([]int32, n/bucket.BucketSize)}
	st = store.New(counter, store.Options{})
	d := newPage(t, st, "alice", 66, 40)
	d.open(cid)
	for _, k := range []string{"pgup", "pgdown", "pgup"} {
		for range 120 { // ten buckets or so each way
			held := map[int64]bool{}
			for i := range heldBuckets(d.tl) {
				held[i] = true
			}
			before := append([]int32(nil), counter.reads...)
			d.keys(k)
			for i, c := range counter.reads {
				if c > before[i] && held[int64(i)] {
					t.Fatalf("%s fetched bucket %d, which was held", k, i)
				}
			}
		}
	}
	rereads := 0
	for _, c := range counter.reads {
		if c > 1 {
			rereads++
		}
	}
	if d.tl.Cursor() != 1 || rereads == 0 {
		t.Errorf("the scroll did not go end to end and back (cursor %d, %d buckets read again)", d.tl.Cursor(), rereads)
	}
}

// TestOlderNoteSaysLoadingOnlyWhileLoading: on a screen taller than the
// buckets held, the top row is the oldest held and "… loading older
// messages" stood above it with nothing loading (the cursor, in the newest
// bucket, reads older buckets only when it reaches the oldest held). The
// note now says "loading" only while a read is under way.
func TestOlderNoteSaysLoadingOnlyWhileLoading(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	var msgs []*bucket.MsgData
	for i := 1; i <= 250; i++ {
		msgs = append(msgs, uitest.TextMsg("bob", "", "team", bucket.SessionGroup, i, fmt.Sprintf("big %d", i)))
	}
	if _, err := st.InsertMessages(t.Context(), uitest.ChatT, 31, msgs[30:]); err != nil {
		t.Fatal(err)
	}
	d := newPage(t, st, "alice", 120, 160)
	d.open(uitest.ChatT)
	if d.tl.tl.Pending() || !d.tl.olderNote {
		t.Fatalf("want a settled screen with older seqs above: pending %v, note %v", d.tl.tl.Pending(), d.tl.olderNote)
	}
	view := d.view()
	if strings.Contains(view, "loading older") {
		t.Errorf("nothing is loading, yet the screen says so:\n%s", view)
	}
	if !strings.Contains(view, "↑ seqs 1–100 are read when you scroll up") {
		t.Errorf("the note does not say where the older seqs are:\n%s", view)
	}
}

// TestHalfPageAndSpaceMoveAsInLess: ctrl+d moves half a page newer and
// ctrl+u half a page back, two of them a whole page; space pages down as
// pgdown does.
func TestHalfPageAndSpaceMoveAsInLess(t *testing.T) {
	const cid = "sg_long"
	st, _ := uitest.NewStore(t, false)
	uitest.WriteLongConversation(t, st, cid, 300)
	d := newPage(t, st, "alice", 120, 40)
	d.open(cid)
	d.keys("g", "pgdown")
	page := d.tl.Cursor()
	d.keys("g", "space")
	if d.tl.Cursor() != page {
		t.Errorf("space from the top went to %d, pgdown to %d", d.tl.Cursor(), page)
	}
	d.keys("g", "ctrl+d")
	half := d.tl.Cursor()
	if half <= 1 || half >= page {
		t.Errorf("ctrl+d from the top went to %d, want between 1 and %d (a page)", half, page)
	}
	d.keys("ctrl+d")
	if d.tl.Cursor() != page {
		t.Errorf("two ctrl+d from the top went to %d, want %d (a page)", d.tl.Cursor(), page)
	}
	d.keys("ctrl+u")
	if d.tl.Cursor() != half {
		t.Errorf("ctrl+u went back to %d, want %d", d.tl.Cursor(), half)
	}
	if uitest.RowOf(d.view(), half) == "" {
		t.Errorf("the cursor's row %d is not on screen after ctrl+u:\n%s", half, d.view())
	}
}
