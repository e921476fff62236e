package model

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
)

// The compare view's keys against the reference: the whole conversation
// read at once gives both viewers' projections and so every difference
// (the runs the compare view counts); the keys are applied one by one to
// that, and as bursts to the model, whose window and scan reads land in
// random order at random moments. Equal at the end: the row, the viewer,
// the second side, "differences only", what the status line says and the
// difference the footer names ("difference k of N"). Searches (/q, n, N)
// go among them: their hits are read from the whole conversation as the
// viewer sees it, their steps served at random moments, and the hit the
// footer names ("hit k of N") is held to the reference's too; and jumps
// typed at ':', by seq (refused outside the window) or by date (a read
// finds its seq).

var testConv = projection.Conv{ID: "sg_x", SessionType: bucket.SessionGroup}

// withDeletes deletes some messages for one member only: differences
// beside those of the windows.
func withDeletes(t *rapid.T, c conv) conv {
	idx := slices.Sorted(func(yield func(int64) bool) {
		for i := range c.buckets {
			if !yield(i) {
				return
			}
		}
	})
	for n := rapid.IntRange(0, 12).Draw(t, "deletes"); n > 0; n-- {
		b := c.buckets[rapid.SampledFrom(idx).Draw(t, "delBucket")]
		s := &b.Slots[rapid.IntRange(0, bucket.BucketSize-1).Draw(t, "delSlot")]
		if s.Slot != nil && s.Slot.Msg != nil {
			sl := *s.Slot
			sl.DelList = append(slices.Clone(sl.DelList), rapid.SampledFrom(c.members).Draw(t, "delFor"))
			s.Slot = &sl
		}
	}
	return c
}

// stored is bucket idx as the store reads it: a bucket not stored is read
// back with every position empty.
func (c conv) stored(idx int64) *bucket.Bucket {
	if b := c.buckets[idx]; b != nil {
		return b
	}
	b := &bucket.Bucket{Cid: "sg_x", Index: idx, DocID: bucket.DocID("sg_x", idx)}
	for i := range b.Slots {
		b.Slots[i].Seq = bucket.FirstSeq(idx) + int64(i)
	}
	return b
}

// bucketOf is the stored bucket holding seq: held, when it is that one
// (an absent bucket is built afresh each time it is asked for).
func (c conv) bucketOf(held *bucket.Bucket, seq int64) *bucket.Bucket {
	if idx := bucket.BucketIndex(seq); held == nil || held.Index != idx {
		return c.stored(idx)
	}
	return held
}

func (c conv) lookup() bucket.Lookup {
	var all []*bucket.Bucket
	for _, b := range c.buckets {
		all = append(all, b)
	}
	return bucket.LookupIn(all, nil)
}

// serveScan answers a step of the compare view's scan.
func (c conv) serveScan(rd Read) Landed {
	l := Landed{Read: rd, Lookup: c.lookup()}
	for _, idx := range rd.Indexes {
		l.Buckets = append(l.Buckets, c.stored(idx))
	}
	return l
}

// diffs are the runs the compare view counts between viewer a and b, read
// seq by seq from the whole conversation.
func (c conv) diffs(a, b string) []Run {
	wa, wb := c.windows[a], c.windows[b]
	if wa.PulledNothing() {
		return nil
	}
	lookup := c.lookup()
	var runs []Run
	var bk *bucket.Bucket
	for seq := max(1, wa.MinSeq); seq <= wa.MaxSeq; seq++ {
		bk = c.bucketOf(bk, seq)
		s := bk.Slots[bucket.SlotIndex(seq)]
		ma := projection.View(s, bk.DocID, a, testConv, lookup)
		mb := projection.View(s, bk.DocID, b, testConv, lookup)
		reason := Verdict(ma, mb, wb, true)
		if reason == "" {
			continue
		}
		r := Run{From: seq, To: seq, A: ma, B: mb, Reason: reason}
		if n := len(runs); n > 0 && runs[n-1].To+1 == seq && runs[n-1].Reason == reason && runs[n-1].Collapsible() && r.Collapsible() {
			runs[n-1].To = seq
			continue
		}
		runs = append(runs, r)
	}
	return runs
}

// compareRef is the reference with the compare view.
type compareRef struct {
	*reference
	on     bool
	with   string
	only   bool
	note   *Note
	cache  map[[2]string][]Run
	search searchRef
}

func (r *compareRef) runs() []Run {
	if !r.on {
		return nil
	}
	key := [2]string{r.viewer, r.with}
	if runs, ok := r.cache[key]; ok {
		return runs
	}
	runs := r.c.diffs(r.viewer, r.with)
	r.cache[key] = runs
	return runs
}

func runIndex(runs []Run, seq int64) int {
	return slices.IndexFunc(runs, func(r Run) bool { return r.From <= seq && seq <= r.To })
}

func (r *compareRef) press(k Key) {
	r.note = nil // what the status line says is the last key's
	if r.pressSearch(k) || r.pressJump(k) {
		return
	}
	switch k.Kind {
	case ToggleCompare:
		k.Kind = CompareOn
		if r.on {
			k.Kind = CompareOff
		}
	case CycleViewer, ViewAs:
		next := k.Viewer
		if k.Kind == CycleViewer {
			next = r.c.members[0]
			for j, id := range r.c.members {
				if id == r.viewer {
					next = r.c.members[(j+1)%len(r.c.members)]
				}
			}
		}
		if r.on && next == r.with && next != r.viewer {
			r.with = r.viewer
		}
		if next != r.viewer {
			r.search = searchRef{} // its hits are what the last viewer sees
		}
		r.reference.press(k)
		return
	case NextMessage, PrevMessage:
		if rows := r.rows(); len(rows) > 0 {
			w := r.c.windows[r.viewer]
			i := at(rows, max(max(1, w.MinSeq), min(w.MaxSeq, r.cursor)))
			found := false
			for j := i + 1; k.Kind == NextMessage && j < len(rows); j++ {
				found = found || rows[j].isMsg
			}
			for j := i - 1; k.Kind == PrevMessage && j >= 0; j-- {
				found = found || rows[j].isMsg
			}
			switch {
			case !found && k.Kind == NextMessage:
				r.note = textNote("no message after this one")
			case !found:
				r.note = textNote("no message before this one")
			}
		}
	}
	switch k.Kind {
	case CompareOn:
		if k.View.Viewer == "" || k.View.Viewer == r.viewer {
			r.on, r.only, r.with = false, false, "" // no one is compared with themselves
			return
		}
		r.on, r.with = true, k.View.Viewer // "differences only" stays as it was
		return
	case CompareOff:
		r.on, r.only, r.with = false, false, ""
		return
	case NextDiff, PrevDiff, DiffOnly:
		if !r.on {
			r.note = &Note{Kind: NoteNotComparing}
			return
		}
	}
	runs := r.runs()
	jump := func(seq int64) { r.reference.press(Key{Kind: Jump, Seq: seq}) }
	// step goes to the nearest difference in dir, wrapping when wrap is set.
	step := func(dir int, wrap bool) {
		var target []Run
		for _, run := range runs {
			if dir > 0 && run.From > r.cursor || dir < 0 && run.To < r.cursor {
				target = append(target, run)
			}
		}
		switch {
		case len(target) > 0 && dir > 0:
			jump(target[0].From)
		case len(target) > 0:
			jump(target[len(target)-1].From)
		case len(runs) == 0:
			before, after := projection.OnlySecondSees(r.c.windows[r.viewer], r.c.windows[r.with])
			if before.Len()+after.Len() > 0 {
				r.note = &Note{Kind: NoteOnlyBeyond}
			} else {
				r.note = &Note{Kind: NoteAlike, A: r.viewer, B: r.with}
			}
		case !wrap:
		case dir > 0:
			r.note = textNote("no newer difference: wrapped to the oldest")
			jump(runs[0].From)
		default:
			r.note = textNote("no older difference: wrapped to the newest")
			jump(runs[len(runs)-1].From)
		}
	}
	switch {
	case k.Kind == NextDiff:
		step(1, true)
	case k.Kind == PrevDiff:
		step(-1, true)
	case k.Kind == DiffOnly:
		r.only = !r.only
		if !r.only || runIndex(runs, r.cursor) >= 0 {
			return
		}
		older := slices.ContainsFunc(runs, func(run Run) bool { return run.To < r.cursor })
		if older {
			step(-1, false)
		} else {
			step(1, false)
		}
	case r.on && r.only && (rowKey(k.Kind) || k.Kind == HalfPageDown || k.Kind == HalfPageUp):
		if len(runs) == 0 {
			return
		}
		delta := map[Kind]int{Down: 1, Up: -1, PageDown: r.page, PageUp: -r.page,
			HalfPageDown: max(1, r.page/2), HalfPageUp: -max(1, r.page/2), Top: -len(runs), Bottom: len(runs)}[k.Kind]
		i := runIndex(runs, r.cursor)
		if i < 0 {
			step(max(-1, min(1, delta)), false)
			return
		}
		jump(runs[max(0, min(len(runs)-1, i+delta))].From)
	default:
		r.reference.press(k)
	}
}

func genCompareKey(t *rapid.T, c conv, i int) Key {
	label := func(s string) string { return fmt.Sprintf("%s%d", s, i) }
	switch rapid.IntRange(0, 15).Draw(t, label("ckey")) {
	case 13, 14:
		return genJumpKey(t, c, i)
	case 10, 11, 12:
		return genSearchKey(t, i)
	case 0:
		return Key{Kind: CompareOn, View: View{Viewer: rapid.SampledFrom(c.members).Draw(t, label("with"))}}
	case 1:
		return Key{Kind: rapid.SampledFrom([]Kind{CompareOff, ToggleCompare}).Draw(t, label("off")), View: View{Viewer: rapid.SampledFrom(c.members).Draw(t, label("toggleWith"))}}
	case 2, 3:
		return Key{Kind: NextDiff}
	case 4:
		return Key{Kind: PrevDiff}
	case 5:
		return Key{Kind: DiffOnly}
	}
	return genKey(t, c, i)
}

func TestCompareKeysLandWhereSinglePressesLand(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		c := withDeletes(t, genConvFar(t, []int64{0, 0, 30}))
		const page, keep = 7, 2
		viewer := "ann"
		start := c.windows[viewer].MaxSeq
		ref := &compareRef{reference: &reference{c: c, viewer: viewer, cursor: start, page: page}, cache: map[[2]string][]Run{}}
		ref.reference.press(Key{Kind: Jump, Seq: start})

		m := New(Config{Keep: keep, Batch: rapid.IntRange(1, 3).Draw(t, "batch"), Conv: testConv}, viewer, c.windows[viewer], start)
		m.SetPage(page)
		var note *Note
		take := func() {
			if n, ok := m.TakeNote(); ok {
				note = &n
			}
		}
		steps := &searchSteps{c: c, scanned: map[int][2]int64{}}
		serve := func(rd Read) Landed {
			if rd.Kind == ReadScan {
				return c.serveScan(rd)
			}
			if rd.Kind == ReadSearch {
				return steps.serve(t, rd)
			}
			if rd.Kind == ReadDate {
				return Landed{Read: rd, Seq: c.firstSentAt(rd.At, rd.From, rd.To)}
			}
			return c.serve(rd)
		}
		inflight := m.Settle()
		keys := rapid.IntRange(0, 40).Draw(t, "keys")
		for i, landings := 0, 0; i < keys || len(inflight) > 0; {
			if landings++; landings > 5000 {
				t.Fatalf("the reads never settle: %d in flight after 5000 landings", len(inflight))
			}
			if len(inflight) > 0 && (i >= keys || rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("land%d", i)) == 0) {
				j := rapid.IntRange(0, len(inflight)-1).Draw(t, "which")
				rd := inflight[j]
				inflight = slices.Delete(inflight, j, j+1)
				inflight = append(inflight, m.Land(serve(rd))...)
				take()
				continue
			}
			n := 1
			if rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("burst%d", i)) == 0 && i+1 < keys {
				n = rapid.IntRange(2, min(12, keys-i)).Draw(t, fmt.Sprintf("burstLen%d", i))
			}
			m.Hold()
			for range n {
				k := genCompareKey(t, c, i)
				note = nil // a key clears the status line (the root's keys.go)
				ref.press(k)
				if reads := m.Press(k); len(reads) > 0 {
					t.Fatalf("a held burst asked for reads before its end: %+v", reads)
				}
				take()
				i++
			}
			inflight = append(inflight, m.Release()...)
			take()
		}
		if m.Waiting() != 0 {
			t.Fatalf("%d keys still wait with nothing in flight (head %+v)", m.Waiting(), m.queue[0])
		}
		cmp := m.Compare()
		if cmp.Scanning() || cmp.Looking() {
			t.Fatalf("still looking for differences with every read in (scanning %v, looking %v)", cmp.Scanning(), cmp.Looking())
		}
		if m.Viewer() != ref.viewer {
			t.Fatalf("viewing as %s, want %s", m.Viewer(), ref.viewer)
		}
		if cmp.On() != ref.on || cmp.On() && cmp.View().Viewer != ref.with || cmp.Only() != (ref.on && ref.only) {
			t.Fatalf("comparing %v with %q (only %v), want %v with %q (only %v)", cmp.On(), cmp.View().Viewer, cmp.Only(), ref.on, ref.with, ref.only)
		}
		if len(ref.rows()) > 0 && m.Cursor() != ref.cursor {
			t.Fatalf("cursor on %d, want %d (as %s, window %+v)", m.Cursor(), ref.cursor, ref.viewer, c.windows[ref.viewer])
		}
		runs := ref.runs()
		if !slices.EqualFunc(cmp.Runs(), runs, func(a, b Run) bool { return a.From == b.From && a.To == b.To && a.Reason == b.Reason }) {
			t.Fatalf("the scan found %v, want %v", spansOf(cmp.Runs()), spansOf(runs))
		}
		if got, want := cmp.RunAt(m.Cursor()), runIndex(runs, ref.cursor); len(ref.rows()) > 0 && got != want {
			t.Fatalf("the footer names difference %d of %d, want %d", got+1, len(cmp.Runs()), want+1)
		}
		if (note == nil) != (ref.note == nil) || note != nil && (note.Kind != ref.note.Kind || note.Text != ref.note.Text || note.A != ref.note.A || note.B != ref.note.B || note.Seq != ref.note.Seq) {
			t.Fatalf("the status says %+v, want %+v", note, ref.note)
		}
		checkSearch(t, m, ref)
		checkScreen(t, m, ref.reference)
	})
}

func spansOf(runs []Run) [][3]any {
	var out [][3]any
	for _, r := range runs {
		out = append(out, [3]any{r.From, r.To, r.Reason})
	}
	return out
}

// checkSearch holds the model's search to the reference's: on or off, the
// query, every hit found, and the hit the footer names ("hit k of N").
func checkSearch(t *rapid.T, m *Model, ref *compareRef) {
	h, on := m.Search().Hits()
	if on != ref.search.on || on && m.Search().Query() != ref.search.query {
		t.Fatalf("searching %v for %q, want %v for %q", on, m.Search().Query(), ref.search.on, ref.search.query)
	}
	if !on {
		return
	}
	if !h.Done || !slices.Equal(h.Seqs, ref.search.hits) {
		t.Fatalf("the search found %v (done %v), want %v", h.Seqs, h.Done, ref.search.hits)
	}
	want := ref.search.all(ref.c.windows[ref.viewer])
	gotN, gotOK := h.Number(m.Cursor())
	wantN, wantOK := want.Number(ref.cursor)
	if gotN != wantN || gotOK != wantOK {
		t.Fatalf("the footer says hit %d (%v) of %d, want hit %d (%v) of %d", gotN, gotOK, len(h.Seqs), wantN, wantOK, len(want.Seqs))
	}
}
