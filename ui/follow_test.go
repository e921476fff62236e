package ui

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store/bucket"

	"time"
)

// manualTicks makes follow mode wait for the test's ticks instead of a
// timer: tick delivers the tick follow mode last set.
func manualTicks(d *driver) (tick func()) {
	var next func(time.Time) tea.Msg
	d.m.e.Tick = func(_ time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		next = fn
		return nil
	}
	return func() {
		d.t.Helper()
		if next == nil {
			d.t.Fatal("follow mode set no tick")
		}
		d.send(next(time.Now()))
	}
}

func following(d *driver) bool {
	on, _ := d.m.tl.Follow().On()
	return on
}

// TestFollowReadsOnlyWhatArrived: with follow mode on, each tick costs one
// round trip (the seq document) while nothing arrives; when messages
// arrive, only the bucket(s) they are in are read, in the same find, and
// the cursor on the newest message moves with them.
func TestFollowReadsOnlyWhatArrived(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	sendTick := manualTicks(d)
	d.open(chatAB)
	add := func(from, to int) {
		t.Helper()
		var msgs []*bucket.MsgData
		for i := from; i <= to; i++ {
			msgs = append(msgs, textMsg("bob", "alice", "", bucket.SessionSingle, i, fmt.Sprintf("live %d", i)))
		}
		if _, err := st.InsertMessages(context.Background(), chatAB, int64(from), msgs); err != nil {
			t.Fatal(err)
		}
	}
	tick := func(wantTrips int64, wantReads map[string]int) {
		t.Helper()
		tb.ResetReads()
		before := st.Stats().RoundTrips
		sendTick()
		if got := st.Stats().RoundTrips - before; got != wantTrips {
			t.Errorf("a tick took %d round trips, want %d", got, wantTrips)
		}
		if reads := tb.ResetReads(); !maps.Equal(reads, wantReads) {
			t.Errorf("a tick read buckets %v, want %v", reads, wantReads)
		}
	}
	tb.ResetReads()
	before := st.Stats().RoundTrips
	d.keys("F")
	if got := st.Stats().RoundTrips - before; got != 1 || len(tb.ResetReads()) != 0 || !following(d) {
		t.Fatalf("F: %d round trips, follow %v; want one poll and no bucket read", got, following(d))
	}
	if !strings.Contains(d.m.View(), "following") {
		t.Error("the status bar does not say the conversation is followed")
	}
	tick(1, map[string]int{})
	tick(1, map[string]int{})

	add(121, 125) // into the newest held bucket
	tick(2, map[string]int{"si_alice_bob:1": 1})
	if d.m.tl.Cursor() != 125 || !strings.Contains(rowOf(d.m.View(), 125), "Bob: live 125") {
		t.Errorf("cursor at %d, row 125 %q: want the cursor on the new newest message", d.m.tl.Cursor(), rowOf(d.m.View(), 125))
	}

	add(126, 230) // fills bucket 1 and starts bucket 2: one find for both
	tick(2, map[string]int{"si_alice_bob:1": 1, "si_alice_bob:2": 1})
	if d.m.tl.Cursor() != 230 {
		t.Errorf("cursor at %d, want 230", d.m.tl.Cursor())
	}

	d.keys("k") // reading back: the cursor stays where it is
	add(231, 231)
	tick(2, map[string]int{"si_alice_bob:2": 1})
	if d.m.tl.Cursor() != 229 || d.m.tl.MaxSeq() != 231 {
		t.Errorf("cursor %d max %d, want the cursor left at 229 and the end at 231", d.m.tl.Cursor(), d.m.tl.MaxSeq())
	}

	d.keys("F") // off: a late tick reads nothing
	before = st.Stats().RoundTrips
	sendTick()
	if got := st.Stats().RoundTrips - before; got != 0 {
		t.Errorf("a tick after follow stopped took %d round trips", got)
	}
}

// TestListFollowsTheConversation: after follow brought in seqs 121 and
// 122, the list still showed bob's chat with alice's old unread count (20)
// and the old preview, and R did not re-read it. Follow now keeps the
// list's row of the followed conversation live, at no extra round trip,
// and R re-reads the list.
func TestListFollowsTheConversation(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	sendTick := manualTicks(d)
	d.open(chatAB)
	d.keys("F")
	var msgs []*bucket.MsgData
	for i := 121; i <= 122; i++ {
		msgs = append(msgs, textMsg("bob", "alice", "", bucket.SessionSingle, i, fmt.Sprintf("live %d", i)))
	}
	if _, err := st.InsertMessages(context.Background(), chatAB, 121, msgs); err != nil {
		t.Fatal(err)
	}
	sendTick()
	view := d.m.View()
	if !strings.Contains(view, "@ Bob (22)") || !strings.Contains(view, "live 122") || strings.Contains(view, "@ Bob (20)") {
		t.Errorf("after follow read seqs 121-122 the list does not show 22 unread and the new preview:\n%s", view)
	}
	// Another process marks read; R re-reads the list too.
	if _, err := st.MarkRead(context.Background(), chatAB, []int64{121, 122}, "alice"); err != nil {
		t.Fatal(err)
	}
	d.keys("F", "R")
	if view := d.m.View(); strings.Contains(view, "@ Bob (") {
		t.Errorf("after R the list still counts unread messages alice read:\n%s", view)
	}
}
