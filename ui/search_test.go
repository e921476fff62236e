package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"github.com/chatlens/chatlens/store/bucket"
)

// searchDriver opens the single chat with the cursor at seq.
func searchDriver(t *testing.T, at int64) *driver {
	t.Helper()
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.jump(at)
	return d
}

func (d *driver) search(q string) {
	d.keys("/")
	d.typeText(q)
	d.keys("enter")
}

// TestSearchStartsAtTheCursor: "hello 11" is in seq 11 and 110-119; from
// seq 60 the first hit is the nearest one back, 11, not the newest (119).
func TestSearchStartsAtTheCursor(t *testing.T) {
	d := searchDriver(t, 60)
	d.search("hello 11")
	if d.m.tl.Cursor() != 11 {
		t.Fatalf("first hit from seq 60 at %d, want 11 (the nearest older)", d.m.tl.Cursor())
	}
	if got := d.m.tl.Search().Progress(); !strings.Contains(got, "of 10 hits") { // 115 is malformed, no text
		t.Errorf("the search says %q, want 10 hits", got)
	}
}

// TestSearchWrapsWithANote: from seq 5 the nearest hit is 11, after the
// cursor; n past the oldest hit wraps to the newest and says so, N past
// the newest wraps to the oldest.
func TestSearchWrapsWithANote(t *testing.T) {
	d := searchDriver(t, 5)
	d.search("hello 11")
	if d.m.tl.Cursor() != 11 {
		t.Fatalf("from seq 5: cursor %d, want 11, the nearest hit", d.m.tl.Cursor())
	}
	d.jump(11)
	d.keys("n")
	if d.m.tl.Cursor() != 119 || !strings.Contains(d.m.status, "wrapped to the newest") {
		t.Errorf("n at the oldest hit: cursor %d, status %q", d.m.tl.Cursor(), d.m.status)
	}
	d.keys("N")
	if d.m.tl.Cursor() != 11 || !strings.Contains(d.m.status, "wrapped to the oldest") {
		t.Errorf("N at the newest hit: cursor %d, status %q", d.m.tl.Cursor(), d.m.status)
	}
}

// TestSearchOffersTheLastQuerySelected: / shows the last query selected, so
// a key typed replaces it, and enter alone searches it again.
func TestSearchOffersTheLastQuerySelected(t *testing.T) {
	d := searchDriver(t, 60)
	d.search("hello 11")
	d.keys("/")
	if v := d.m.input.Value(); v != "hello 11" {
		t.Fatalf("second / offers %q, want the last query", v)
	}
	d.typeText("hello 2") // replaces it whole: it is offered selected
	if v := d.m.input.Value(); v != "hello 2" {
		t.Errorf("typing over the offered query gave %q, want %q", v, "hello 2")
	}
	d.keys("esc", "/", "enter")
	if d.m.tl.Search().Query() != "hello 11" {
		t.Errorf("enter on the offered query searched %q", d.m.tl.Search().Query())
	}
}

// TestNoMatchIsSaidOneWay: a search with no hit says "no match for" it, and
// n afterwards says the same, not that nothing was searched.
func TestNoMatchIsSaidOneWay(t *testing.T) {
	d := searchDriver(t, 60)
	d.search("zebra")
	if !strings.Contains(d.m.status, `no match for "zebra"`) {
		t.Fatalf("status %q, want no match", d.m.status)
	}
	d.keys("n")
	if !strings.Contains(d.m.status, `no match for "zebra"`) {
		t.Errorf("n after a search with no hit says %q", d.m.status)
	}
}

// TestGoldenSearchHighlight is compared with colours on: the match inside
// each hit row is marked (bold, underlined) and a lost mark fails here.
func TestGoldenSearchHighlight(t *testing.T) {
	withProfile(t, termenv.ANSI256)
	s := startScreen(t)
	s.open()
	s.keys("/")
	s.typeText("hello 11")
	s.keys("enter")
	s.waitFor("hit 1 of 10")
	s.check()
}

// TestSearchMatchesFarQuotesAsShown: the timeline shows the quotes of seq 3
// (revoked) as "Carol revoked a message" (OpenIM's controller/msg.go
// handlerDBMsg rewrites them); a search for it finds them even when it reads
// the quoting bucket in a batch without the quoted one.
func TestSearchMatchesFarQuotesAsShown(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedFarQuotes(t, st)
	st.FindBatch = 1 // one bucket a step: bucket 3's quotes reach outside it
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatQ)
	d.search("carol revoked")
	if p := d.m.tl.Search().Progress(); strings.Contains(p, "scanning") || !strings.Contains(p, " 3 hits") {
		t.Errorf("the search says %q, want 3 hits, the scan done", p)
	}
	// From the newest message, n steps to the older hits.
	hits := []int64{d.m.tl.Cursor()}
	for range 2 {
		d.keys("n")
		hits = append(hits, d.m.tl.Cursor())
	}
	if !slices.Equal(hits, []int64{350, 340, 3}) {
		t.Errorf("hits %v, want [350 340 3]: both quotes of the revoked message and the message", hits)
	}
}

// TestSearchCountsHitsFromTheNewest: hits are numbered from the newest,
// so n, to older messages, counts up.
func TestSearchCountsHitsFromTheNewest(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.search("hello 11")
	if d.m.tl.Cursor() != 119 || !strings.Contains(d.m.tl.Search().Progress(), "hit 1 of 10") {
		t.Fatalf("at seq %d: %q, want the newest hit, 1 of 10", d.m.tl.Cursor(), d.m.tl.Search().Progress())
	}
	d.keys("n")
	if d.m.tl.Cursor() != 118 || !strings.Contains(d.m.tl.Search().Progress(), "hit 2 of 10") {
		t.Errorf("n: at seq %d, %q; want 118, hit 2 of 10", d.m.tl.Cursor(), d.m.tl.Search().Progress())
	}
}

// TestSearchLandsOnTheNearestHitEitherWay: from seq 100 the hits of
// "hello 11" are 10 rows ahead (110) and 89 back (11): the search lands
// ahead, on the nearer (before, on the nearest older one, 89 rows away);
// n then goes older, counting up, and N newer.
func TestSearchLandsOnTheNearestHitEitherWay(t *testing.T) {
	d := searchDriver(t, 100)
	d.search("hello 11")
	if d.m.tl.Cursor() != 110 || !strings.Contains(d.m.tl.Search().Progress(), "hit 9 of 10") {
		t.Fatalf("from seq 100: at %d, %q; want 110, hit 9 of 10", d.m.tl.Cursor(), d.m.tl.Search().Progress())
	}
	d.keys("n")
	if d.m.tl.Cursor() != 11 || !strings.Contains(d.m.tl.Search().Progress(), "hit 10 of 10") {
		t.Errorf("n from 110: at %d, %q; want 11, hit 10 of 10", d.m.tl.Cursor(), d.m.tl.Search().Progress())
	}
	d.keys("N")
	if d.m.tl.Cursor() != 110 {
		t.Errorf("N from 11: at %d, want 110", d.m.tl.Cursor())
	}
}

// TestSearchFooterGoesWithTheSearch: a search with no hit says so once and
// leaves no "0 hits · n/N step" behind; a viewer switch drops a search's
// hits (they are what the last viewer sees) and its footer.
func TestSearchFooterGoesWithTheSearch(t *testing.T) {
	d := searchDriver(t, 60)
	d.search("zebra")
	d.jump(100)
	if strings.Contains(d.m.View(), "0 hits") {
		t.Errorf("the footer keeps the search with no hit after a jump:\n%s", d.m.View())
	}
	d.search("hello 11")
	if !strings.Contains(d.m.View(), "hits") {
		t.Fatalf("no search footer:\n%s", d.m.View())
	}
	d.keys("u")
	d.typeText("bob")
	d.keys("enter")
	if strings.Contains(d.m.View(), "hits ·") || d.m.tl.Search().Progress() != "" {
		t.Errorf("the footer keeps alice's search as bob:\n%s", d.m.View())
	}
}

// TestSearchLandsOnTheBucketsItRead: the hit, 8 buckets back, is jumped to
// with the buckets the search read around it: no bucket is read twice
// (before, the jump read the hit's bucket and the ones beside it again).
func TestSearchLandsOnTheBucketsItRead(t *testing.T) {
	const cid = "sg_long"
	st, tb := newTestStore(t, false)
	var msgs []*bucket.MsgData
	for s := 1; s <= 1000; s++ {
		text := fmt.Sprintf("long note %d", s)
		if s == 150 {
			text = "the needle"
		}
		msgs = append(msgs, textMsg("alice", "", "long", bucket.SessionGroup, s, text))
	}
	if _, err := st.InsertMessages(t.Context(), cid, 1, msgs); err != nil {
		t.Fatal(err)
	}
	insertRaw(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "alice", ConversationID: cid, ConversationType: 3, GroupID: "long"})
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(cid)
	tb.ResetReads()
	d.search("needle")
	if d.m.tl.Cursor() != 150 || rowOf(d.m.View(), 150) == "" {
		t.Fatalf("cursor %d after the search, want 150 drawn:\n%s", d.m.tl.Cursor(), d.m.View())
	}
	for id, n := range tb.ResetReads() {
		if n > 1 {
			t.Errorf("bucket %s read %d times", id, n)
		}
	}
}
