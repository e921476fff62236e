package ui

import (
	"testing"

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
	if d.m.tl.viewer != "alice" {
		b.Fatalf("viewer %q after V V", d.m.tl.viewer)
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
	first := bucket.FirstSeq(bucket.BucketIndex(t.cursor))
	viewers := [2]string{"bob", "alice"}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		v := viewers[i%2]
		i++
		for seq := first; seq < first+bucket.BucketSize; seq++ {
			if _, ok := t.message(seq, v); !ok {
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
		if cmd := d.m.tl.setViewer(v); cmd != nil {
			b.Fatalf("the timeline's switch to %s started a read", v)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = d.m.cycleViewer() // the list reload is I/O, not measured here
		_ = d.m.View()
	}
}
