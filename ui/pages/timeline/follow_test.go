package timeline

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/uitest"
)

// manualTicks makes follow mode wait for the test's ticks instead of a
// timer: tick delivers the tick follow mode last set.
func (p *page) manualTicks() (tick func()) {
	var next func(time.Time) tea.Msg
	p.e.Tick = func(_ time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		next = fn
		return nil
	}
	return func() {
		p.t.Helper()
		if next == nil {
			p.t.Fatal("follow mode set no tick")
		}
		p.do(func() tea.Msg { return next(time.Now()) })
	}
}

// follow is F, which the root gives to the timeline's follow mode.
func (p *page) follow() { p.press(p.tl.Follow().Toggle) }

func (p *page) following() bool {
	on, _ := p.tl.Follow().On()
	return on
}

// TestFollowReadsOnlyWhatArrived: with follow mode on, each tick costs one
// round trip (the seq document) while nothing arrives; when messages
// arrive, only the bucket(s) they are in are read, in the same find, and
// the cursor on the newest message moves with them.
func TestFollowReadsOnlyWhatArrived(t *testing.T) {
	st, tb := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	p := newPage(t, st, "alice", 120, 40)
	sendTick := p.manualTicks()
	p.open(uitest.ChatAB)
	add := func(from, to int) {
		t.Helper()
		var msgs []*bucket.MsgData
		for i := from; i <= to; i++ {
			msgs = append(msgs, uitest.TextMsg("bob", "alice", "", bucket.SessionSingle, i, fmt.Sprintf("live %d", i)))
		}
		if _, err := st.InsertMessages(context.Background(), uitest.ChatAB, int64(from), msgs); err != nil {
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
	p.follow()
	if got := st.Stats().RoundTrips - before; got != 1 || len(tb.ResetReads()) != 0 || !p.following() {
		t.Fatalf("F: %d round trips, follow %v; want one poll and no bucket read", got, p.following())
	}
	// The status bar's "following" is the root's (TestGoldenFollow); the
	// timeline's note says it too.
	if !strings.HasPrefix(p.status, "following "+uitest.ChatAB) {
		t.Errorf("F does not say the conversation is followed: %q", p.status)
	}
	tick(1, map[string]int{})
	tick(1, map[string]int{})

	add(121, 125) // into the newest held bucket
	tick(2, map[string]int{"si_alice_bob:1": 1})
	if p.tl.Cursor() != 125 || !strings.Contains(uitest.RowOf(p.view(), 125), "Bob: live 125") {
		t.Errorf("cursor at %d, row 125 %q: want the cursor on the new newest message", p.tl.Cursor(), uitest.RowOf(p.view(), 125))
	}

	add(126, 230) // fills bucket 1 and starts bucket 2: one find for both
	tick(2, map[string]int{"si_alice_bob:1": 1, "si_alice_bob:2": 1})
	if p.tl.Cursor() != 230 {
		t.Errorf("cursor at %d, want 230", p.tl.Cursor())
	}

	p.keys("k") // reading back: the cursor stays where it is
	add(231, 231)
	tick(2, map[string]int{"si_alice_bob:2": 1})
	if p.tl.Cursor() != 229 || p.tl.Viewers().MaxSeq() != 231 {
		t.Errorf("cursor %d max %d, want the cursor left at 229 and the end at 231", p.tl.Cursor(), p.tl.Viewers().MaxSeq())
	}

	p.follow() // off: a late tick reads nothing
	before = st.Stats().RoundTrips
	sendTick()
	if got := st.Stats().RoundTrips - before; got != 0 {
		t.Errorf("a tick after follow stopped took %d round trips", got)
	}
}
