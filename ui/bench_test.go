package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// Benchmarks of the draw path, which runs on every key press: no I/O, every
// bucket already held. Run with: go test -run '^$' -bench . -benchmem ./ui

// benchTimeline is a 120x40 model with si_alice_bob open as alice and the
// cursor in bucket 0, a full bucket (seq 5 deleted for alice, seq 7 revoked),
// so the screen is drawn from one full bucket.
func benchTimeline(b *testing.B) (*driver, *testBackend) {
	st, tb := newTestStore(b, false)
	seedSmall(b, st)
	opts, _ := testOptions(b, "alice")
	d := newDriver(b, st, opts, 120, 40)
	d.open(chatAB)
	d.jump(60)
	if seqs := seqsOnScreen(d.m.View()); len(seqs) < 30 || bucket.BucketIndex(seqs[0]) != bucket.BucketIndex(seqs[len(seqs)-1]) {
		b.Fatalf("the screen is not one full bucket: %v", seqs)
	}
	// bob's window is known, so a switch to him needs no read.
	d.keys("V", "V")
	if d.m.tl.Viewer() != "alice" {
		b.Fatalf("viewer %q after V V", d.m.tl.Viewer())
	}
	return d, tb
}

// BenchmarkTimelineView draws the whole screen: list pane, timeline (every
// row projected for the viewer and styled), status bar and key hints.
func BenchmarkTimelineView(b *testing.B) {
	d, _ := benchTimeline(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = d.m.View()
	}
}

// BenchmarkProjectBucketForViewer re-projects the 100 held slots of a bucket
// for another viewer: what a viewer switch costs before any drawing.
func BenchmarkProjectBucketForViewer(b *testing.B) {
	d, _ := benchTimeline(b)
	t := d.m.tl
	first := bucket.FirstSeq(bucket.BucketIndex(t.Cursor()))
	viewers := [2]string{"bob", "alice"}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		v := viewers[i%2]
		i++
		for seq := first; seq < first+bucket.BucketSize; seq++ {
			if _, ok := t.Message(seq, v); !ok {
				b.Fatalf("seq %d not held", seq)
			}
		}
	}
}

// BenchmarkViewerSwitch is the whole switch as the user sees it: the next
// viewer (window already known) and the redrawn screen.
func BenchmarkViewerSwitch(b *testing.B) {
	d, _ := benchTimeline(b)
	// A switch reloads the new viewer's conversation list (list previews,
	// TestViewerSwitchReadsNoBucket), but the timeline of a viewer whose
	// window is known starts no read.
	for _, v := range []string{"bob", "alice"} {
		if cmd, winReq, _ := d.m.tl.Viewers().ViewAs(v, true); cmd != nil || winReq != 0 {
			b.Fatalf("the timeline's switch to %s started a read", v)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_, ask := d.m.tl.Viewers().Cycle()
		_ = d.m.viewers.follow(d.m.tl, &d.m.list, ask) // the list reload is I/O, not measured here
		_ = d.m.View()
	}
}

// slowBackend adds a delay to every read round trip the timeline makes: a
// MongoDB over a VPN. Writes are not timed here.
type slowBackend struct {
	store.Backend
	delay time.Duration
}

func (s slowBackend) FindBuckets(ctx context.Context, ids []string) ([]bson.Raw, error) {
	time.Sleep(s.delay)
	return s.Backend.FindBuckets(ctx, ids)
}

func (s slowBackend) FindSlots(ctx context.Context, id string, first, n int) (bson.Raw, bool, error) {
	time.Sleep(s.delay)
	return s.Backend.FindSlots(ctx, id, first, n)
}

func (s slowBackend) BucketIDs(ctx context.Context, cid string) ([]string, error) {
	time.Sleep(s.delay)
	return s.Backend.BucketIDs(ctx, cid)
}

// BenchmarkBurstAcrossBucketsAtLatency is the UI model over a slow link: a
// jump far back into a 50,000-message group, then 250 k in one burst,
// which crosses two bucket edges, each bucket read as the cursor needs it.
// Run with -bench BurstAcross; round trips/op is what the latency multiplies.
func BenchmarkBurstAcrossBucketsAtLatency(b *testing.B) {
	const cid = "sg_townsquare"
	st, tb := newTestStore(b, false)
	writeLongConversation(b, st, cid, 50_000)
	for _, delay := range []time.Duration{0, 40 * time.Millisecond, 80 * time.Millisecond} {
		b.Run(delay.String(), func(b *testing.B) {
			slow := store.New(slowBackend{Backend: tb.Backend, delay: delay}, store.Options{})
			opts, _ := testOptions(b, "alice")
			s := NewScript(context.Background(), slow, opts, 120, 40)
			s.Keys("/", cid, "enter", "enter")
			trips := slow.Stats().RoundTrips
			b.ResetTimer()
			for b.Loop() {
				s.Keys(":", "40050", "enter", strings.Repeat("k", 250))
				if s.Cursor() != 39800 {
					b.Fatalf("cursor at %d after 250 k from 40050", s.Cursor())
				}
			}
			b.ReportMetric(float64(slow.Stats().RoundTrips-trips)/float64(b.N), "roundtrips/op")
		})
	}
}

func (s slowBackend) FindSlotRanges(ctx context.Context, ranges []store.SlotRange) ([]store.SlotRead, error) {
	time.Sleep(s.delay)
	return s.Backend.FindSlotRanges(ctx, ranges)
}
