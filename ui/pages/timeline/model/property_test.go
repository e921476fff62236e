package model

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
)

// The model against a reference: the whole conversation read at once,
// turned into the viewer's rows by a plain seq-by-seq reading of the row
// rules, and the keys applied to that list one by one. The model gets the
// same keys with its reads landing in random order at random moments, and
// must end on the same row, as the same viewer, holding few buckets.
//
// rapid shrinks a failing case to a small one and keeps it under
// testdata/rapid, where every later run replays it first.

// conv is a generated conversation: its stored buckets, and each viewer's
// window of it.
type conv struct {
	buckets map[int64]*bucket.Bucket // stored ones only
	windows map[string]bucket.Window
	members []string
	found   map[[2]string][]int64    // hits by viewer and query, read once (search_property_test.go)
	thens   map[side]projection.Then // windows then, read once (then)
	rowsOf  map[rowsKey][]refRow     // the reference's rows, read once (reference.rows)
}

// rowsKey names the rows the reference reads: a viewer's window at a
// moment, with or without bucket boundaries.
type rowsKey struct {
	viewer     string
	at         int64
	boundaries bool
}

func genConv(t *rapid.T) conv { return genConvFar(t, []int64{0, 0, 30, 1_000_000}) }

// genConvFar is genConv with the bucket stored far past the rest drawn
// from fars (0: none).
func genConvFar(t *rapid.T, fars []int64) conv {
	c := conv{buckets: map[int64]*bucket.Bucket{}, windows: map[string]bucket.Window{}, found: map[[2]string][]int64{}, thens: map[side]projection.Then{},
		rowsOf: map[rowsKey][]refRow{}}
	n := rapid.IntRange(1, 7).Draw(t, "buckets")
	far := rapid.SampledFrom(fars).Draw(t, "far") // a bucket stored far past the rest
	var indexes []int64
	for i := range int64(n) {
		indexes = append(indexes, i)
	}
	if far > 0 {
		indexes = append(indexes, far)
	}
	last := indexes[len(indexes)-1]
	for _, idx := range indexes {
		if idx != last && rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("absent%d", idx)) == 0 {
			continue // not stored
		}
		c.buckets[idx] = genBucket(t, idx)
	}
	end := bucket.FirstSeq(last) + int64(rapid.IntRange(0, bucket.BucketSize-1).Draw(t, "end"))
	seqMin := int64(rapid.SampledFrom([]int{0, 0, 1, 50, 150, 250}).Draw(t, "seqMin"))
	for _, u := range []string{"ann", "bo", "cy"} {
		w := bucket.Window{Cid: "sg_x", MinSeq: max(1, seqMin), MaxSeq: end, EndSeq: end}
		if um := int64(rapid.SampledFrom([]int{0, 0, 20, 120, 199}).Draw(t, "userMin"+u)); um > w.MinSeq {
			w.MinSeq = um // cleared their own history
		}
		if rapid.IntRange(0, 4).Draw(t, "left"+u) == 0 {
			w.MaxSeq = max(1, end-int64(rapid.IntRange(0, 250).Draw(t, "cap"+u))) // left the group
		}
		w.ReadSeq = int64(rapid.Int64Range(0, max(0, w.MaxSeq)).Draw(t, "read"+u))
		c.windows[u] = w
		c.members = append(c.members, u)
	}
	return c
}

func genBucket(t *rapid.T, idx int64) *bucket.Bucket {
	b := &bucket.Bucket{Cid: "sg_x", Index: idx, DocID: bucket.DocID("sg_x", idx)}
	style := rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("style%d", idx)) // 0: holes only, 1: sparse, 2: dense, 3: runs
	for i := range b.Slots {
		s := &b.Slots[i]
		s.Seq = bucket.FirstSeq(idx) + int64(i)
		s.Slot = bucket.EmptySlot()
		var msg bool
		switch style {
		case 1:
			msg = (i*7+int(idx))%23 == 0
		case 2:
			msg = (i+int(idx))%5 != 0
		case 3:
			msg = (i/9)%2 == 0
		}
		if msg {
			s.Slot.Msg = &bucket.MsgData{SendID: "ann", Seq: s.Seq, SendTime: s.Seq, Content: "hi", ContentType: 101} // sent at ms seq: a moment is a seq
		}
	}
	if rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("problem%d", idx)) == 0 {
		b.Slots[rapid.IntRange(0, 99).Draw(t, fmt.Sprintf("bad%d", idx))] = bucket.StoredSlot{
			Seq: bucket.FirstSeq(idx) + 5, Problem: "seq disagrees with its slot"}
		b.Slots[5].Seq = bucket.FirstSeq(idx) + 5
	}
	if rapid.IntRange(0, 14).Draw(t, fmt.Sprintf("docProblem%d", idx)) == 0 {
		b.Problems = []string{"msgs holds 101 slots"}
	}
	return b
}

// refRow is one row of the reference list.
type refRow struct {
	first int64
	isMsg bool
}

// refRows reads the window seq by seq (a run of buckets not stored in one
// step) and starts a row wherever the rules say one starts.
func (c conv) refRows(w bucket.Window, boundaries bool) []refRow {
	lo, hi := max(1, w.MinSeq), w.MaxSeq
	var rows []refRow
	prev := unknown
	for seq := lo; seq <= hi; {
		idx := bucket.BucketIndex(seq)
		b := c.buckets[idx]
		if b == nil {
			if prev != absent {
				rows = append(rows, refRow{first: seq})
			}
			prev = absent
			seq = bucket.FirstSeq(c.nextStored(idx))
			continue
		}
		cur := message
		if plainHole(b.Slots[bucket.SlotIndex(seq)]) {
			cur = hole
		}
		line := seq == lo || seq-1 == w.ReadSeq && w.ReadSeq < hi ||
			seq == bucket.FirstSeq(idx) && (boundaries || len(b.Problems) > 0)
		if cur == message || prev != hole || line {
			rows = append(rows, refRow{first: seq, isMsg: cur == message})
		}
		prev = cur
		seq++
	}
	return rows
}

// nextStored is the first stored bucket after idx (past the end: none).
func (c conv) nextStored(idx int64) int64 {
	next := int64(1) << 40
	for i := range c.buckets {
		if i > idx {
			next = min(next, i)
		}
	}
	return next
}

// then is viewer's window at moment at (ms), read back from the whole
// conversation as the page's read does (projection.ThenTally): no dated
// evidence, every message sent at the ms of its seq.
func (c conv) then(viewer string, at int64) projection.Then {
	if t, ok := c.thens[side{viewer, at}]; ok {
		return t
	}
	w := c.windows[viewer]
	a := projection.AsOf{At: at, Viewer: viewer, Conv: projection.Conv{ID: "sg_x", SessionType: bucket.SessionGroup},
		H: bucket.History{Viewer: viewer, Cid: "sg_x", Owned: true}}
	t := projection.NewThenTally(a, w)
	var idx []int64
	for i := range c.buckets {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	next := int64(1)
	for _, i := range idx {
		if first := bucket.FirstSeq(i); first > next {
			t.AddGap(next, first-1)
		}
		for _, st := range c.buckets[i].Slots {
			t.Add(st)
		}
		next = bucket.LastSeq(i) + 1
	}
	t.AddGap(next, w.MaxSeq)
	if c.thens != nil {
		c.thens[side{viewer, at}] = t.Then()
	}
	return t.Then()
}

// reference applies keys one by one to the whole list of rows.
type reference struct {
	c          conv
	viewer     string
	at         int64 // the moment shown, ms; 0: now
	cursor     int64
	page       int
	boundaries bool
}

// rows are the rows of the window shown, read from the whole conversation
// once per window (the conversation does not change under a case).
func (r *reference) rows() []refRow {
	k := rowsKey{r.viewer, r.at, r.boundaries}
	if rows, ok := r.c.rowsOf[k]; ok {
		return rows
	}
	rows := r.c.refRows(r.window(), r.boundaries)
	if r.c.rowsOf != nil {
		r.c.rowsOf[k] = rows
	}
	return rows
}

// window is the viewer's window at the moment shown.
func (r *reference) window() bucket.Window {
	if r.at == 0 {
		return r.c.windows[r.viewer]
	}
	return r.c.then(r.viewer, r.at).Window
}

// at is the index of the row holding seq.
func at(rows []refRow, seq int64) int {
	i, _ := slices.BinarySearchFunc(rows, seq, func(r refRow, s int64) int { return cmpInt(r.first, s+1) })
	return max(0, i-1)
}

func (r *reference) press(k Key) {
	if k.Kind == Boundaries {
		r.boundaries = !r.boundaries
		k = Key{Kind: Jump, Seq: r.cursor}
	}
	rows := r.rows()
	if len(rows) == 0 && k.Kind != CycleViewer && k.Kind != ViewAs && k.Kind != AtMoment {
		return
	}
	w := r.window()
	clamp := func(s int64) int64 { return max(max(1, w.MinSeq), min(w.MaxSeq, s)) }
	i := 0
	if len(rows) > 0 {
		i = at(rows, clamp(r.cursor))
	}
	switch k.Kind {
	case Down:
		i = min(i+1, len(rows)-1)
	case Up:
		i = max(i-1, 0)
	case PageDown:
		i = min(i+r.page, len(rows)-1)
	case PageUp:
		i = max(i-r.page, 0)
	case HalfPageDown:
		i = min(i+max(1, r.page/2), len(rows)-1)
	case HalfPageUp:
		i = max(i-max(1, r.page/2), 0)
	case Top:
		i = 0
	case Bottom:
		i = len(rows) - 1
	case Jump:
		i = at(rows, clamp(k.Seq))
	case NextMessage:
		for j := i + 1; j < len(rows); j++ {
			if rows[j].isMsg {
				i = j
				break
			}
		}
	case PrevMessage:
		for j := i - 1; j >= 0; j-- {
			if rows[j].isMsg {
				i = j
				break
			}
		}
	case CycleViewer, ViewAs, AtMoment:
		next := k.Viewer
		if k.Kind == AtMoment {
			next, r.at = r.viewer, k.At
		}
		if k.Kind == CycleViewer {
			next = r.c.members[0]
			for j, id := range r.c.members {
				if id == r.viewer {
					next = r.c.members[(j+1)%len(r.c.members)]
				}
			}
		}
		r.viewer = next
		rows = r.rows()
		if len(rows) == 0 {
			return
		}
		w = r.window()
		i = at(rows, max(max(1, w.MinSeq), min(w.MaxSeq, r.cursor)))
	}
	r.cursor = rows[i].first
}

// serve answers a read from the whole conversation, as the page's reads
// of the store do.
func (c conv) serve(rd Read) Landed {
	l := Landed{Read: rd}
	switch rd.Kind {
	case ReadMembers:
		l.Members = c.members
	case ReadWindow:
		l.Window = c.windows[rd.Viewer]
	case ReadMoment:
		l.Then = c.then(rd.Viewer, rd.At)
	case ReadBuckets:
		for _, idx := range rd.Indexes {
			if b := c.buckets[idx]; b != nil {
				l.Buckets = append(l.Buckets, b)
			} else {
				l.Absent = append(l.Absent, [2]int64{idx, idx})
			}
		}
		lastIdx := rd.Indexes[len(rd.Indexes)-1]
		if c.buckets[lastIdx] == nil && rd.Dir != 0 {
			// On to the nearest stored bucket beyond, in one step.
			var stored []int64
			for i := range c.buckets {
				stored = append(stored, i)
			}
			slices.Sort(stored)
			if rd.Dir > 0 {
				k := slices.IndexFunc(stored, func(i int64) bool { return i > lastIdx })
				if k < 0 {
					l.Absent = append(l.Absent, [2]int64{lastIdx, lastIdx + 1_000_000_000})
				} else {
					l.Absent = append(l.Absent, [2]int64{lastIdx, stored[k] - 1})
					l.Buckets = append(l.Buckets, c.buckets[stored[k]])
				}
			} else {
				k := -1
				for j, i := range stored {
					if i < lastIdx {
						k = j
					}
				}
				if k < 0 {
					l.Absent = append(l.Absent, [2]int64{0, lastIdx})
				} else {
					l.Absent = append(l.Absent, [2]int64{stored[k] + 1, lastIdx})
					l.Buckets = append(l.Buckets, c.buckets[stored[k]])
				}
			}
		}
	}
	return l
}

func genKey(t *rapid.T, c conv, i int) Key {
	switch rapid.IntRange(0, 12).Draw(t, fmt.Sprintf("key%d", i)) {
	case 11:
		return Key{Kind: Boundaries}
	case 0, 1:
		return Key{Kind: Down}
	case 2, 3:
		return Key{Kind: Up}
	case 4:
		return Key{Kind: rapid.SampledFrom([]Kind{PageDown, HalfPageDown}).Draw(t, fmt.Sprintf("pagedown%d", i))}
	case 5:
		return Key{Kind: rapid.SampledFrom([]Kind{PageUp, HalfPageUp}).Draw(t, fmt.Sprintf("pageup%d", i))}
	case 6:
		return Key{Kind: rapid.SampledFrom([]Kind{Top, Bottom}).Draw(t, fmt.Sprintf("end%d", i))}
	case 7:
		return Key{Kind: rapid.SampledFrom([]Kind{NextMessage, PrevMessage}).Draw(t, fmt.Sprintf("msg%d", i))}
	case 8:
		var top int64
		for idx := range c.buckets {
			top = max(top, bucket.LastSeq(idx))
		}
		return Key{Kind: Jump, Seq: rapid.Int64Range(-5, top+5).Draw(t, fmt.Sprintf("seq%d", i))}
	case 9:
		return Key{Kind: CycleViewer}
	case 10:
		return Key{Kind: ViewAs, Viewer: rapid.SampledFrom(c.members).Draw(t, fmt.Sprintf("as%d", i))}
	}
	return Key{Kind: rapid.SampledFrom([]Kind{Down, Up}).Draw(t, fmt.Sprintf("step%d", i))}
}

// genMomentKey is genKey or, one time in six, a moment shown (0: now)
// or a time within a bucket of the start, the middle or the end.
func genMomentKey(t *rapid.T, c conv, i int) Key {
	if rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("momentKey%d", i)) > 0 {
		return genKey(t, c, i)
	}
	var top int64
	for idx := range c.buckets {
		top = max(top, bucket.LastSeq(idx))
	}
	at := rapid.SampledFrom([]int64{0, 0, 1, top / 2, top}).Draw(t, fmt.Sprintf("moment%d", i))
	return Key{Kind: AtMoment, At: rapid.Int64Range(at, at+120).Draw(t, fmt.Sprintf("at%d", i)) * min(1, at)}
}

func TestKeysLandWhereSinglePressesLand(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) { checkKeys(t, genKey) })
}

// A moment changes what the rows are: the keys around one land on the rows
// of the window then, read back from the whole conversation.
func TestMomentKeysLandWhereSinglePressesLand(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) { checkKeys(t, genMomentKey) })
}

// checkKeys presses keys drawn by gen on the model and the reference.
func checkKeys(t *rapid.T, gen func(*rapid.T, conv, int) Key) {
	c := genConv(t)
	const page, keep = 7, 2
	viewer := "ann"
	start := c.windows[viewer].MaxSeq
	ref := &reference{c: c, viewer: viewer, cursor: start, page: page}
	ref.press(Key{Kind: Jump, Seq: start})

	m := New(Config{Keep: keep, Batch: 3}, viewer, c.windows[viewer], start)
	m.SetPage(page)
	var inflight []Read
	inflight = append(inflight, m.Settle()...)
	keys := rapid.IntRange(0, 60).Draw(t, "keys")
	for i, landings := 0, 0; i < keys || len(inflight) > 0; {
		if landings++; landings > 5000 {
			t.Fatalf("the reads never settle: %d in flight after 5000 landings", len(inflight))
		}
		landNow := len(inflight) > 0 && (i >= keys || rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("land%d", i)) == 0)
		if landNow {
			j := rapid.IntRange(0, len(inflight)-1).Draw(t, "which")
			rd := inflight[j]
			if landings > 4990 {
				t.Logf("land %+v cursor %d top %d held %v absent %v empty %v viewer %s", rd, m.cursor, m.top, m.HeldIndexes(), m.k.absent, m.k.empty, m.viewer)
			}
			inflight = slices.Delete(inflight, j, j+1)
			inflight = append(inflight, m.Land(c.serve(rd))...)
			continue
		}
		if burst := rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("burst%d", i)); burst == 0 && i+1 < keys {
			// One read of the terminal: the keys are taken first, the
			// reads asked for once after the last.
			n := rapid.IntRange(2, min(12, keys-i)).Draw(t, fmt.Sprintf("burstLen%d", i))
			m.Hold()
			for range n {
				k := gen(t, c, i)
				ref.press(k)
				if reads := m.Press(k); len(reads) > 0 {
					t.Fatalf("a held burst asked for reads before its end: %+v", reads)
				}
				i++
			}
			inflight = append(inflight, m.Release()...)
			continue
		}
		k := gen(t, c, i)
		ref.press(k)
		inflight = append(inflight, m.Press(k)...)
		i++
	}
	if m.Waiting() != 0 {
		w, _ := m.apply(&m.queue[0])
		t.Logf("head %+v wait %+v need %+v pending %v cursor %d top %d absent %v empty %v held %v", m.queue[0], w, w.bucket, m.pending, m.cursor, m.top, m.k.absent, m.k.empty, m.HeldIndexes())
		t.Fatalf("%d keys still wait with nothing in flight", m.Waiting())
	}
	if m.Moment().At() != ref.at {
		t.Fatalf("at %d, want %d", m.Moment().At(), ref.at)
	}
	if m.Viewer() != ref.viewer {
		t.Fatalf("viewing as %s, want %s", m.Viewer(), ref.viewer)
	}
	if len(ref.rows()) > 0 && m.Cursor() != ref.cursor {
		t.Fatalf("cursor on %d, want %d (as %s at %d, window %+v)", m.Cursor(), ref.cursor, ref.viewer, ref.at, ref.window())
	}
	checkScreen(t, m, ref)
	if held := len(m.HeldIndexes()); held > 2*keep+3 {
		t.Fatalf("holds %d buckets, want at most %d", held, 2*keep+3)
	}
}

// checkScreen walks the rows the page would draw from the cursor, both
// ways, as far as they are read, and holds each to the reference's row.
func checkScreen(t *rapid.T, m *Model, ref *reference) {
	rows := ref.rows()
	if len(rows) == 0 {
		return
	}
	i := at(rows, m.Cursor())
	for _, dir := range []int{1, -1} {
		row, j := m.Cursor(), i
		for n := 0; n < 20; n++ {
			got, ok := m.Rows().At(row)
			if !ok {
				t.Fatalf("row %d (row %d of the reference) is not drawn", row, j)
			}
			want := rows[j]
			last := ref.window().MaxSeq
			if j+1 < len(rows) {
				last = rows[j+1].first - 1
			}
			if got.First != want.first || (got.Kind == RowMessage) != want.isMsg || !got.Open && got.Last != last || got.Open && got.Last > last {
				t.Fatalf("row %d drawn as %+v, want first %d last %d message %v", j, got, want.first, last, want.isMsg)
			}
			var next int64
			if dir > 0 {
				next, ok = m.Rows().Next(row)
			} else {
				next, ok = m.Rows().Prev(row)
			}
			if !ok {
				break
			}
			row, j = next, j+dir
		}
	}
}
