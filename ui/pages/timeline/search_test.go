package timeline

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/uitest"
)

// search is /, the query typed, enter: the root gives the query to the
// timeline's search.
func (p *page) search(q string) { p.press(func() tea.Cmd { return p.tl.Search().Start(q) }) }

// step is n (next, older) or N, which the root gives to the search.
func (p *page) step(next bool) { p.press(func() tea.Cmd { return p.tl.Search().Step(next) }) }

// TestSearchStartsAtTheCursor: "hello 11" is in seq 11 and 110-119; from
// seq 60 the first hit is the nearest one back, 11, not the newest (119).
func TestSearchStartsAtTheCursor(t *testing.T) {
	p := smallAt(t, 60)
	p.search("hello 11")
	if p.tl.Cursor() != 11 {
		t.Fatalf("first hit from seq 60 at %d, want 11 (the nearest older)", p.tl.Cursor())
	}
	if got := p.tl.Search().Progress(); !strings.Contains(got, "of 10 hits") { // 115 is malformed, no text
		t.Errorf("the search says %q, want 10 hits", got)
	}
}

// TestSearchWrapsWithANote: from seq 5 the nearest hit is 11, after the
// cursor; n past the oldest hit wraps to the newest and says so, N past
// the newest wraps to the oldest.
func TestSearchWrapsWithANote(t *testing.T) {
	p := smallAt(t, 5)
	p.search("hello 11")
	if p.tl.Cursor() != 11 {
		t.Fatalf("from seq 5: cursor %d, want 11, the nearest hit", p.tl.Cursor())
	}
	p.jump(11)
	p.step(true) // n
	if p.tl.Cursor() != 119 || !strings.Contains(p.status, "wrapped to the newest") {
		t.Errorf("n at the oldest hit: cursor %d, status %q", p.tl.Cursor(), p.status)
	}
	p.step(false) // N
	if p.tl.Cursor() != 11 || !strings.Contains(p.status, "wrapped to the oldest") {
		t.Errorf("N at the newest hit: cursor %d, status %q", p.tl.Cursor(), p.status)
	}
}

// TestNoMatchIsSaidOneWay: a search with no hit says "no match for" it, and
// n afterwards says the same, not that nothing was searched.
func TestNoMatchIsSaidOneWay(t *testing.T) {
	p := smallAt(t, 60)
	p.search("zebra")
	if !strings.Contains(p.status, `no match for "zebra"`) {
		t.Fatalf("status %q, want no match", p.status)
	}
	p.step(true) // n
	if !strings.Contains(p.status, `no match for "zebra"`) {
		t.Errorf("n after a search with no hit says %q", p.status)
	}
}

// TestSearchMatchesFarQuotesAsShown: the timeline shows the quotes of seq 3
// (revoked) as "Carol revoked a message" (OpenIM's controller/msg.go
// handlerDBMsg rewrites them); a search for it finds them even when it reads
// the quoting bucket in a batch without the quoted one.
func TestSearchMatchesFarQuotesAsShown(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedFarQuotes(t, st)
	st.FindBatch = 1 // one bucket a step: bucket 3's quotes reach outside it
	p := newPage(t, st, "alice", 120, 40)
	p.open(uitest.ChatQ)
	p.search("carol revoked")
	if p := p.tl.Search().Progress(); strings.Contains(p, "scanning") || !strings.Contains(p, " 3 hits") {
		t.Errorf("the search says %q, want 3 hits, the scan done", p)
	}
	// From the newest message, n steps to the older hits.
	hits := []int64{p.tl.Cursor()}
	for range 2 {
		p.step(true) // n
		hits = append(hits, p.tl.Cursor())
	}
	if !slices.Equal(hits, []int64{350, 340, 3}) {
		t.Errorf("hits %v, want [350 340 3]: both quotes of the revoked message and the message", hits)
	}
}

// TestSearchCountsHitsFromTheNewest: hits are numbered from the newest,
// so n, to older messages, counts up.
func TestSearchCountsHitsFromTheNewest(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	p := newPage(t, st, "alice", 120, 40)
	p.open(uitest.ChatAB)
	p.search("hello 11")
	if p.tl.Cursor() != 119 || !strings.Contains(p.tl.Search().Progress(), "hit 1 of 10") {
		t.Fatalf("at seq %d: %q, want the newest hit, 1 of 10", p.tl.Cursor(), p.tl.Search().Progress())
	}
	p.step(true) // n
	if p.tl.Cursor() != 118 || !strings.Contains(p.tl.Search().Progress(), "hit 2 of 10") {
		t.Errorf("n: at seq %d, %q; want 118, hit 2 of 10", p.tl.Cursor(), p.tl.Search().Progress())
	}
}

// TestSearchLandsOnTheNearestHitEitherWay: from seq 100 the hits of
// "hello 11" are 10 rows ahead (110) and 89 back (11): the search lands
// ahead, on the nearer (before, on the nearest older one, 89 rows away);
// n then goes older, counting up, and N newer.
func TestSearchLandsOnTheNearestHitEitherWay(t *testing.T) {
	p := smallAt(t, 100)
	p.search("hello 11")
	if p.tl.Cursor() != 110 || !strings.Contains(p.tl.Search().Progress(), "hit 9 of 10") {
		t.Fatalf("from seq 100: at %d, %q; want 110, hit 9 of 10", p.tl.Cursor(), p.tl.Search().Progress())
	}
	p.step(true) // n
	if p.tl.Cursor() != 11 || !strings.Contains(p.tl.Search().Progress(), "hit 10 of 10") {
		t.Errorf("n from 110: at %d, %q; want 11, hit 10 of 10", p.tl.Cursor(), p.tl.Search().Progress())
	}
	p.step(false) // N
	if p.tl.Cursor() != 110 {
		t.Errorf("N from 11: at %d, want 110", p.tl.Cursor())
	}
}

// TestSearchLandsOnTheBucketsItRead: the hit, 8 buckets back, is jumped to
// with the buckets the search read around it: no bucket is read twice
// (before, the jump read the hit's bucket and the ones beside it again).
func TestSearchLandsOnTheBucketsItRead(t *testing.T) {
	const cid = "sg_long"
	st, tb := uitest.NewStore(t, false)
	var msgs []*bucket.MsgData
	for s := 1; s <= 1000; s++ {
		text := fmt.Sprintf("long note %d", s)
		if s == 150 {
			text = "the needle"
		}
		msgs = append(msgs, uitest.TextMsg("alice", "", "long", bucket.SessionGroup, s, text))
	}
	if _, err := st.InsertMessages(t.Context(), cid, 1, msgs); err != nil {
		t.Fatal(err)
	}
	uitest.Insert(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "alice", ConversationID: cid, ConversationType: 3, GroupID: "long"})
	p := newPage(t, st, "alice", 120, 40)
	p.open(cid)
	tb.ResetReads()
	p.search("needle")
	if p.tl.Cursor() != 150 || uitest.RowOf(p.view(), 150) == "" {
		t.Fatalf("cursor %d after the search, want 150 drawn:\n%s", p.tl.Cursor(), p.view())
	}
	for id, n := range tb.ResetReads() {
		if n > 1 {
			t.Errorf("bucket %s read %d times", id, n)
		}
	}
}
