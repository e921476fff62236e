package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// burst is what Bubble Tea v1 delivers when several runes are read from the
// terminal at once: one KeyMsg holding them all.
func burst(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// TestBurstOfKeysIsEveryKey: "jj", "kkkkk" and ":100" typed faster than
// the terminal is read each do what the keys do one by one.
func TestBurstOfKeysIsEveryKey(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	items := d.m.list.Items()
	if len(items) != 2 {
		t.Fatalf("want two conversations, have %d", len(items))
	}
	d.send(burst("jj"))
	if got := d.m.list.Selected(); got != &items[1] { // the second j stops at the last of two
		t.Errorf("list cursor on %s after jj, want the second, %s", got.Sum.ConversationID, items[1].Sum.ConversationID)
	}
	d.send(burst("kk"))
	if got := d.m.list.Selected(); got != &items[0] {
		t.Errorf("list cursor on %s after kk, want the first, %s", got.Sum.ConversationID, items[0].Sum.ConversationID)
	}
	d.open(chatAB)
	d.send(burst("kkkkk"))
	if d.m.tl.Cursor() != 115 {
		t.Errorf("timeline cursor at %d after kkkkk from 120, want 115", d.m.tl.Cursor())
	}
	d.send(burst(":100"))
	d.keys("enter")
	if d.m.tl.Cursor() != 100 {
		t.Errorf("timeline cursor at %d after :100 enter, want 100", d.m.tl.Cursor())
	}
}

// TestBurstPasteIntoInputStaysWhole: a bracketed paste into the jump
// prompt is typed as it is.
func TestBurstPasteIntoInputStaysWhole(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.keys(":")
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("42"), Paste: true})
	d.keys("enter")
	if d.m.tl.Cursor() != 42 {
		t.Errorf("cursor at %d after pasting 42 into the jump prompt", d.m.tl.Cursor())
	}
}

// TestGoldenBurstJump: ":5" and enter arriving as one burst in a real
// program land on seq 5.
func TestGoldenBurstJump(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.tm.Send(burst(":5"))
	s.keys("enter")
	s.waitFor("▸   5 ")
	s.tm.Send(burst("jj"))
	s.waitFor("▸   7 ")
	s.check()
}

// TestKeyBurstCrossesBucketEdges: 250 k in one burst from 40050 of a
// 50,000-message group land on 39800, though 39901 is the first seq held
// when the burst arrives (buckets 399-401): the rows past it wait for the
// read of the older buckets they need, asked for in one find, instead of
// being dropped.
func TestKeyBurstCrossesBucketEdges(t *testing.T) {
	t.Parallel()
	const cid = "sg_townsquare"
	st, _ := newTestStore(t, false)
	writeLongConversation(t, st, cid, 50_000)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(cid)
	d.jump(40050)
	trips := st.Stats().RoundTrips
	d.send(burst(strings.Repeat("k", 250)))
	if d.m.tl.Cursor() != 39800 {
		t.Errorf("cursor at %d after 250 k from 40050, want 39800", d.m.tl.Cursor())
	}
	// Buckets 398 and 397 in one find, then 396 read ahead.
	if trips = st.Stats().RoundTrips - trips; trips != 2 {
		t.Errorf("the burst took %d round trips, want 2", trips)
	}
	d.send(burst(strings.Repeat("j", 250)))
	if d.m.tl.Cursor() != 40050 {
		t.Errorf("cursor at %d after 250 j back, want 40050", d.m.tl.Cursor())
	}
}

// TestKeysWhileABucketIsReadAllCount: keys pressed one by one while the
// bucket they lead into is still being read (the first screen's older
// bucket, right after opening) each move a row once it lands.
func TestKeysWhileABucketIsReadAllCount(t *testing.T) {
	const cid = "sg_short"
	st, _ := newTestStore(t, false)
	writeLongConversation(t, st, cid, 250) // the newest bucket holds 201-250
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.keys("/")
	d.typeText(cid)
	d.keys("enter")
	cmds := []tea.Cmd{d.sendOnly(keyMsg("enter"))} // opens; bucket 1 is read
	for range 60 {
		cmds = append(cmds, d.sendOnly(keyMsg("k")))
	}
	d.run(tea.Batch(cmds...))
	if d.m.tl == nil {
		t.Fatal("the conversation did not open")
	}
	if d.m.tl.Cursor() != 190 {
		t.Errorf("cursor at %d after 60 k from 250 pressed during the read, want 190", d.m.tl.Cursor())
	}
}
