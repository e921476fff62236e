package projection

import (
	"reflect"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// thenOf is the window then ThenTally keeps of slots (from seq 1).
func thenOf(a AsOf, w bucket.Window, slots ...bucket.StoredSlot) Then {
	t := NewThenTally(a, w)
	for _, st := range slots {
		t.Add(st)
	}
	return t.Then()
}

// A view that walks the window then row by row (the UI) shows what dump
// --at prints: the seqs PullAt gives, each read back alike and marked
// unknown alike, the window's start's unknowns on the first row.
func TestThenIsWhatPullAtGives(t *testing.T) {
	msgs := func(n int64, mods map[int64][]func(*bucket.Slot)) []bucket.StoredSlot {
		var out []bucket.StoredSlot
		for seq := int64(1); seq <= n; seq++ {
			out = append(out, stored(seq, groupMessage(seq, Text, `{"content":"m"}`), mods[seq]...))
		}
		return out
	}
	told := bucket.Evidence{Kind: bucket.EvidenceDelete, At: sentAt + 3, User: "bob", Seqs: []int64{2}, Source: "2102"}
	slots := msgs(6, map[int64][]func(*bucket.Slot){2: {deletedBy("bob")}, 3: {deletedBy("bob")}, 4: {revokedBy("alice", "A", 100, sentAt+5)}})
	slots[4] = bucket.StoredSlot{Seq: 5} // a hole, shown only once a later message is
	g := AsOf{Viewer: "bob", Conv: Conv{ID: group, SessionType: bucket.SessionGroup},
		H: bucket.History{Owned: true, Created: beforeAll, Evidence: []bucket.Evidence{told}}}
	for _, c := range []struct {
		name string
		at   int64
		w    bucket.Window
	}{
		{"before any message", beforeAll, bucket.Window{Cid: group, MinSeq: 1, MaxSeq: 6}},
		{"after seq 4, before its revoke", sentAt + 4, bucket.Window{Cid: group, MinSeq: 1, MaxSeq: 6}},
		{"after seq 5's time, which is a hole", sentAt + 5, bucket.Window{Cid: group, MinSeq: 1, MaxSeq: 6}},
		{"after all", later, bucket.Window{Cid: group, MinSeq: 1, MaxSeq: 6, ReadSeq: 6}},
		{"a cleared history, no 1703", later, bucket.Window{Cid: group, MinSeq: 3, MaxSeq: 6, UserMinSeq: 3}},
	} {
		a := g
		a.At = c.at
		rows := pullOf(a, c.w, slots[max(0, c.w.MinSeq-2):]...)
		then := thenOf(a, c.w, slots...)
		if len(rows) == 0 {
			if then.Window.MaxSeq != 0 {
				t.Errorf("%s: the pull gave nothing, the window then is %d..%d", c.name, then.Window.MinSeq, then.Window.MaxSeq)
			}
			continue
		}
		if lo, hi := rows[0].Seq, rows[len(rows)-1].Seq; then.Window.MinSeq != lo || then.Window.MaxSeq != hi {
			t.Errorf("%s: window then %d..%d, the pull gave %d..%d", c.name, then.Window.MinSeq, then.Window.MaxSeq, lo, hi)
		}
		for _, r := range rows {
			m, unknown := then.View(slots[r.Seq-1], "", nil)
			if !reflect.DeepEqual(m, r.Message) || !reflect.DeepEqual(unknown, r.Unknown) {
				t.Errorf("%s: seq %d: %+v %q; the pull gave %+v %q", c.name, r.Seq, m, unknown, r.Message, r.Unknown)
			}
		}
	}
}

// The read seq then is conversations --at's: the viewer's own sends by
// then, the dated read marks; a raise no evidence dates makes it a bound.
func TestThenReadSeqIsTheListsThen(t *testing.T) {
	var slots []bucket.StoredSlot
	for seq := int64(1); seq <= 4; seq++ {
		m := groupMessage(seq, Text, `{"content":"m"}`)
		if seq == 2 {
			m.SendID = "bob"
		}
		slots = append(slots, stored(seq, m))
	}
	mark := bucket.Evidence{Kind: bucket.EvidenceRead, At: sentAt + 4, User: "bob", Seqs: []int64{3}, ReadSeq: 3}
	a := AsOf{At: sentAt + 3, Viewer: "bob", Conv: Conv{ID: group, SessionType: bucket.SessionGroup},
		H: bucket.History{Owned: true, Created: beforeAll, Evidence: []bucket.Evidence{mark}}}
	w := bucket.Window{Cid: group, MinSeq: 1, MaxSeq: 4, ReadSeq: 3}
	if then := thenOf(a, w, slots...); then.Window.ReadSeq != 2 || then.ReadAtLeast {
		t.Errorf("before the mark: read seq %s, want 2 (bob's own send)", then.ReadWords())
	}
	w.ReadSeq = 4 // raised past every mark, when no evidence says
	if then := thenOf(a, w, slots...); !then.ReadAtLeast || then.ReadWords() != "≥ 2" || len(then.ReadWhy) == 0 {
		t.Errorf("an undated raise: read seq %s (why %q), want ≥ 2 with why", then.ReadWords(), then.ReadWhy)
	}
	a.At = beforeAll
	if then := thenOf(a, w, slots...); !then.Had || then.Window.MaxSeq != 0 || then.NotHeld() != "no message of it was sent by then" {
		t.Errorf("before any message: had %v, window %d..%d, %q; want nothing pulled, none sent", then.Had, then.Window.MinSeq, then.Window.MaxSeq, then.NotHeld())
	}
	a.At, a.H.Created = sentAt+3, later
	if then := thenOf(a, w, slots...); then.Had || then.Window.MaxSeq != 0 || !strings.Contains(then.NotHeld(), "they got it at") {
		t.Errorf("before they got it: had %v, window %d..%d, %q; want nothing pulled, and when they got it", then.Had, then.Window.MinSeq, then.Window.MaxSeq, then.NotHeld())
	}
}

// A run of buckets not stored is taken in one step, with the window then
// it would have seq by seq.
func TestThenTakesAGapInOneStep(t *testing.T) {
	a := AsOf{At: later, Viewer: "bob", Conv: Conv{ID: group, SessionType: bucket.SessionGroup}, H: bucket.History{Owned: true, Created: beforeAll}}
	w := bucket.Window{Cid: group, MinSeq: 1, MaxSeq: 260}
	msg := stored(250, groupMessage(250, Text, `{"content":"m"}`))
	bySeq, byGap := NewThenTally(a, w), NewThenTally(a, w)
	for seq := int64(1); seq < 250; seq++ {
		bySeq.Add(bucket.StoredSlot{Seq: seq})
	}
	byGap.AddGap(1, 249)
	for _, tally := range []*ThenTally{bySeq, byGap} {
		tally.Add(msg)
		tally.AddGap(251, 300)
	}
	if got, want := byGap.Then().Window, bySeq.Then().Window; got.MinSeq != want.MinSeq || got.MaxSeq != want.MaxSeq || want.MinSeq != 1 || want.MaxSeq != 250 {
		t.Errorf("a gap in one step: window %d..%d; seq by seq %d..%d, want 1..250", got.MinSeq, got.MaxSeq, want.MinSeq, want.MaxSeq)
	}
}

// A history cleared at a time nothing stored gives (OpenIM stores no
// notification of a clear: pkg/notification/msg.go:35-81), after seq 2
// was sent and before seq 3 was (delete.go:132-142 sets min_seq to the
// max seq then + 1): at a moment in between, the UI shows seqs 1-2 as
// dump --at prints them, each marked. With no message before the start,
// its "pull gave nothing" says why, not that nothing was sent.
func TestThenShowsTheSeqsBeforeAnUndatedClear(t *testing.T) {
	var slots []bucket.StoredSlot
	for seq := int64(1); seq <= 4; seq++ {
		slots = append(slots, stored(seq, message(seq, Text, `{"content":"m"}`)))
	}
	w := bucket.Window{Cid: single, MinSeq: 3, MaxSeq: 4, UserMinSeq: 3}
	then := thenOf(asOfBob(sentAt+2), w, slots...)
	rows := pullOf(asOfBob(sentAt+2), w, slots...)
	if then.Window.MinSeq != 1 || then.Window.MaxSeq != 2 || len(rows) != 2 {
		t.Fatalf("between seq 2 and seq 3: window then %d..%d, pull %+v; want 1..2", then.Window.MinSeq, then.Window.MaxSeq, rows)
	}
	for i, r := range rows {
		if _, unknown := then.View(slots[i], "", nil); !reflect.DeepEqual(unknown, r.Unknown) || len(unknown) != 1 {
			t.Errorf("seq %d: the UI's unknown %q, the pull's %q; want the same, saying the clear may have come", r.Seq, unknown, r.Unknown)
		}
	}
	holes := []bucket.StoredSlot{{Seq: 1}, {Seq: 2}, slots[2], slots[3]}
	then = thenOf(asOfBob(sentAt+2), w, holes...)
	if why := then.NotHeld(); then.Window.MaxSeq != 0 || !strings.Contains(why, "no message of the window now was sent by then") ||
		!strings.Contains(why, "cleared at a time nothing stored gives") {
		t.Errorf("no message before the start: window %d..%d, %q; want nothing of the window now, and why", then.Window.MinSeq, then.Window.MaxSeq, why)
	}
	if why := thenOf(asOfBob(sentAt), bucket.Window{Cid: single, MinSeq: 1, MaxSeq: 4}, slots...).NotHeld(); why != "no message of it was sent by then" {
		t.Errorf("a window never cleared, before any message: %q", why)
	}
}
