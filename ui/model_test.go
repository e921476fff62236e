package ui

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

func TestTimelineDrawsEachKindOfSlot(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	if got := d.m.tl.Cursor(); got != 120 {
		t.Fatalf("cursor starts at %d, want the newest seq 120", got)
	}
	view := d.m.View()
	if !strings.Contains(view, "Alice read up to here (seq 100)") {
		t.Errorf("no read line at alice's read seq 100:\n%s", view)
	}
	for seq, want := range map[int64]string{106: "· seqs 106–109: no message (4)", 115: "! ", 120: "Bob: hello 120 from bob"} {
		if row := rowOf(view, seq); !strings.Contains(row, want) {
			t.Errorf("seq %d drawn as %q, want it to contain %q", seq, row, want)
		}
	}
	d.jump(5)
	view = d.m.View()
	if row := rowOf(view, 5); !strings.Contains(row, "✗") || !strings.Contains(row, "deleted for Alice") {
		t.Errorf("seq 5 (deleted for alice) drawn as %q", row)
	}
	if row := rowOf(view, 7); !strings.Contains(row, "⟲") || !strings.Contains(row, "revoked by Bob") {
		t.Errorf("seq 7 (revoked) drawn as %q", row)
	}
	d.keys("G", "b")
	if !strings.Contains(d.m.View(), "── bucket si_alice_bob:1 ──") {
		t.Error("b does not show bucket boundaries")
	}
}

func TestViewAsReprojectsWithoutReading(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.jump(5)
	if row := rowOf(d.m.View(), 5); !strings.Contains(row, "deleted for Alice") {
		t.Fatalf("alice should see seq 5 deleted, got %q", row)
	}
	d.readMembers() // V cycles the picker's list
	trips := st.Stats().RoundTrips
	tb.ResetReads()

	cmd := d.sendOnly(keyMsg("V")) // next member: bob
	row := rowOf(d.m.View(), 5)
	if !strings.Contains(row, "Alice: hello 5 from alice") || strings.Contains(row, "deleted") {
		t.Errorf("bob should see seq 5 as sent, got %q", row)
	}
	if got := st.Stats().RoundTrips; got != trips {
		t.Errorf("switching viewer made %d round trips before redrawing", got-trips)
	}
	d.run(cmd) // bob's read position arrives in the background
	if n := tb.ResetReads()[bucket.DocID(chatAB, 0)]; n != 0 {
		t.Errorf("the held bucket was read %d times on a viewer switch", n)
	}
	if !strings.Contains(d.m.View(), "as Bob") {
		t.Error("the header does not name the new viewer")
	}

	// The picker with type-ahead switches back.
	d.keys("v")
	d.typeText("ali")
	d.keys("enter")
	if d.m.tl.Viewer() != "alice" || !strings.Contains(rowOf(d.m.View(), 5), "deleted for Alice") {
		t.Errorf("picker did not switch back to alice: viewer %q", d.m.tl.Viewer())
	}
}

func TestViewAsAnyUserReloadsTheirList(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.keys("u")
	d.typeText("carol")
	d.keys("enter")
	view := d.m.View()
	if !strings.Contains(view, "Conversations of carol") || strings.Contains(view, "@ Bob") {
		t.Errorf("carol's list not shown (she has only the team):\n%s", view)
	}
}

func TestActions(t *testing.T) {
	cases := []struct {
		name, key   string
		seq         int64
		wantRow     string
		wantStatus  string
		checkStored func(t *testing.T, s bucket.StoredSlot)
	}{
		{name: "revoke", key: "r", seq: 11, wantRow: "revoked by Alice", wantStatus: "revoke seq 11 as alice: done",
			checkStored: func(t *testing.T, s bucket.StoredSlot) {
				if s.Slot.Revoke == nil || s.Slot.Revoke.UserID != "alice" {
					t.Errorf("stored revoke %+v", s.Slot.Revoke)
				}
			}},
		{name: "delete for me", key: "d", seq: 11, wantRow: "deleted for Alice", wantStatus: "delete seq 11 as alice: done",
			checkStored: func(t *testing.T, s bucket.StoredSlot) {
				if len(s.Slot.DelList) != 1 || s.Slot.DelList[0] != "alice" {
					t.Errorf("stored del_list %v", s.Slot.DelList)
				}
			}},
		{name: "mark read", key: "m", seq: 112, wantRow: "", wantStatus: "mark read seq 101-112 as alice: done",
			checkStored: func(t *testing.T, s bucket.StoredSlot) {
				if !s.Slot.IsRead {
					t.Error("slot 112 (sent by bob) not marked read")
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, _ := newTestStore(t, false)
			seedSmall(t, st)
			opts, _ := testOptions(t, "alice")
			d := newDriver(t, st, opts, 120, 40)
			d.open(chatAB)
			d.jump(c.seq)
			d.keys(c.key)
			if d.m.overlay != ovConfirm {
				t.Fatalf("%s did not ask for confirmation", c.key)
			}
			d.keys("y")
			view := d.m.View()
			if !strings.Contains(view, c.wantStatus) {
				t.Errorf("status %q, want %q", d.m.status, c.wantStatus)
			}
			if c.wantRow != "" && !strings.Contains(rowOf(view, c.seq), c.wantRow) {
				t.Errorf("seq %d drawn as %q after %s", c.seq, rowOf(view, c.seq), c.name)
			}
			if c.key == "m" && !strings.Contains(view, "read up to here (seq 112)") {
				t.Errorf("read line did not move to 112:\n%s", view)
			}
			bs, err := st.Buckets(context.Background(), chatAB, []int64{bucket.BucketIndex(c.seq)}, 120)
			if err != nil {
				t.Fatal(err)
			}
			c.checkStored(t, bs[0].Slots[bucket.SlotIndex(c.seq)])
		})
	}
}

func TestCancelledActionWritesNothing(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.keys("r") // reads the members for the revoker's role, then asks
	if d.m.overlay != ovConfirm {
		t.Fatal("r did not ask for confirmation")
	}
	trips := st.Stats().RoundTrips
	d.keys("n")
	if d.m.overlay != ovNone || st.Stats().RoundTrips != trips || !strings.Contains(d.m.View(), "cancelled") {
		t.Errorf("cancel: overlay %v, %d round trips", d.m.overlay, st.Stats().RoundTrips-trips)
	}
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	plain, tb := newTestStore(t, false)
	seedSmall(t, plain)
	st := store.New(tb, store.Options{ReadOnly: true}) // as --read-only opens it
	opts, _ := testOptions(t, "alice")
	opts.ReadOnly = true
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	trips := st.Stats().RoundTrips
	for _, k := range []string{"r", "d", "m"} {
		d.keys(k)
		if d.m.overlay != ovNone {
			t.Fatalf("%s opened a dialog in read-only mode", k)
		}
		if !strings.Contains(d.m.View(), "read-only") {
			t.Errorf("%s: no refusal on screen", k)
		}
	}
	if st.Stats().RoundTrips != trips {
		t.Error("read-only mode still talked to the store")
	}
	d.keys("?")
	if help := d.m.View(); strings.Contains(help, "delete for me") || strings.Contains(help, "mark read to here") ||
		!strings.Contains(help, "read-only") {
		t.Errorf("read-only help still lists the write keys, or does not say they are off:\n%s", help)
	}
	// The store refuses the write even if a plan it never made is applied.
	p := store.Plan{Request: store.WriteRequest{Action: store.ActionRevoke, Cid: chatAB, By: "alice", Seqs: []int64{1}}, Write: []int64{1}}
	msg := apply(d.m.e, d.m.e.NewReq(), actRevoke, p)()
	if done := msg.(actionDoneMsg); !errors.Is(done.err, store.ErrReadOnly) {
		t.Errorf("write command in read-only mode: %v", done.err)
	}
}

func TestLateReplyForALeftConversationIsDropped(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.keys("/")
	d.typeText(chatAB)
	d.keys("enter")
	first := d.sendOnly(keyMsg("enter")) // opens si_alice_bob, reads not run yet
	d.keys("esc", "esc", "/")
	d.typeText("team")
	d.keys("enter", "enter") // opens the team chat and settles
	d.run(first)             // the old reply arrives late
	if d.m.tl.ID() != chatT {
		t.Fatalf("open conversation is %s", d.m.tl.ID())
	}
	// The team chat's rows say "team note"; si_alice_bob's "hello".
	if view := d.m.View(); strings.Contains(view, "hello ") || !strings.Contains(view, "team note 30") {
		t.Errorf("a bucket of %s was taken into the %s timeline:\n%s", chatAB, chatT, view)
	}
}

func TestFailedLoadShowsErrorAndRetries(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	tb.SetFail(errBoom)
	d.open(chatAB)
	view := d.m.View()
	if !strings.Contains(view, "could not load: connection refused") || !strings.Contains(view, "press R to retry") {
		t.Fatalf("no error with retry hint:\n%s", view)
	}
	tb.SetFail(nil)
	d.keys("R")
	if row := rowOf(d.m.View(), 120); !strings.Contains(row, "hello 120") {
		t.Errorf("retry did not load the timeline:\n%s", d.m.View())
	}
}

func TestKeysDoNotFireWhileTyping(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	trips := st.Stats().RoundTrips
	d.keys("/")
	d.typeText("qrdm?") // quit, revoke, delete, mark read, help: all just text here
	if d.m.overlay != ovNone || d.m.input.Value() != "qrdm?" {
		t.Errorf("typing fired keys: overlay %v, input %q", d.m.overlay, d.m.input.Value())
	}
	if st.Stats().RoundTrips != trips {
		t.Error("typing talked to the store")
	}
}

func TestSearchStepsBetweenHits(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.keys("/")
	d.typeText("hello 1")
	d.keys("enter")
	// Hits newest first: 120, 119, 118, ...
	if d.m.tl.Cursor() != 120 {
		t.Fatalf("first hit at %d, want 120", d.m.tl.Cursor())
	}
	if !strings.Contains(d.m.View(), "hits") {
		t.Error("no search progress shown")
	}
	d.keys("n", "n")
	if d.m.tl.Cursor() != 118 {
		t.Errorf("n n went to %d, want 118", d.m.tl.Cursor())
	}
	d.keys("N")
	if d.m.tl.Cursor() != 119 {
		t.Errorf("N went to %d, want 119", d.m.tl.Cursor())
	}
	// Only seq 5 says "hello 5 from", and it is deleted for alice.
	d.keys("/")
	d.typeText("hello 5 from") // over the last query, offered selected
	d.keys("enter")
	if d.m.tl.Search().Progress() != "" || !strings.Contains(d.m.View(), "no match") {
		t.Errorf("search found what alice cannot see: %s", d.m.tl.Search().Progress())
	}
}

func TestJumpToDateAndEnds(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.keys(":")
	d.typeText("2024-05-01 09:30") // seq 30 was sent at 09:30
	d.keys("enter")
	if d.m.tl.Cursor() != 30 {
		t.Errorf("date jump landed on %d, want 30", d.m.tl.Cursor())
	}
	d.keys("G")
	if d.m.tl.Cursor() != 120 {
		t.Errorf("G landed on %d", d.m.tl.Cursor())
	}
	d.keys("g")
	if d.m.tl.Cursor() != 1 {
		t.Errorf("g landed on %d", d.m.tl.Cursor())
	}
	d.keys(":")
	d.typeText("9999")
	d.keys("enter")
	if !strings.Contains(d.m.View(), "outside") {
		t.Error("a seq beyond the window is not refused")
	}
}

func TestCopySendsSanitisedOSC52(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	ctx := context.Background()
	evil := textMsg("bob", "alice", "", bucket.SessionSingle, 121, "hi\x1b]52;c;ZXZpbA==\x07there")
	if _, err := st.InsertMessages(ctx, chatAB, 121, []*bucket.MsgData{evil}); err != nil {
		t.Fatal(err)
	}
	opts, clip := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.keys("y", "y")
	out := clip.String()
	if !strings.HasPrefix(out, "\x1b]52;c;") || strings.Count(out, "\x1b") != 1 {
		t.Fatalf("clipboard got %q: want exactly one OSC52 sequence", out)
	}
	// What lands on the clipboard is base64: decode it and look at the text
	// itself, which must carry the message but not its escape sequence.
	payload := strings.TrimSuffix(strings.TrimPrefix(out, "\x1b]52;c;"), "\a")
	payload = strings.TrimSuffix(payload, "\x1b\\")
	text, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		t.Fatalf("clipboard payload %q is not base64: %v", payload, err)
	}
	if !strings.Contains(string(text), "hi") || !strings.Contains(string(text), "there") || strings.ContainsRune(string(text), 0x1b) {
		t.Errorf("copied text %q: want the message with its escape sequence neutralised", text)
	}
	if !strings.Contains(d.m.View(), "copied") {
		t.Error("no status after copy")
	}
}

func TestResizeReflows(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	for _, size := range [][2]int{{60, 20}, {160, 50}, {40, 12}} {
		d.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(d.m.View(), "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: drew %d lines", size[0], size[1], len(lines))
		}
		for _, l := range lines {
			if w := len([]rune(l)); w > size[0] {
				t.Errorf("%dx%d: line of %d cells: %q", size[0], size[1], w, l)
				break
			}
		}
		if rowOf(d.m.View(), 120) == "" {
			t.Errorf("%dx%d: selected message not on screen", size[0], size[1])
		}
	}
}

// TestRevokeAskedThenLeftIsForgotten: r waits for the store's plan; if the
// user leaves for another conversation meanwhile, no revoke dialog may pop
// up there later, on a message never chosen.
func TestRevokeAskedThenLeftIsForgotten(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 30)
	d.open(chatT)
	pending := d.sendOnly(keyMsg("r")) // the plan read, not yet run
	d.keys("esc", "esc")
	d.open(chatAB)
	d.run(pending) // the late reply for the team chat arrives
	d.keys("V")    // reads the members of this chat
	if d.m.overlay == ovConfirm {
		t.Fatalf("a revoke asked for in %s was offered in %s:\n%s", chatT, chatAB, d.m.View())
	}
}

// TestRevokeChecksTheStoreNotTheHeldBucket: the bucket on screen may be
// stale. A message someone else revoked after it was read is refused, and
// the original revoker stays.
func TestRevokeChecksTheStoreNotTheHeldBucket(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.jump(11) // alice's own message
	if _, err := st.Revoke(context.Background(), chatAB, []int64{11}, bucket.Revoke{UserID: "bob", Nickname: "Bob", Time: 1}); err != nil {
		t.Fatal(err)
	}
	d.keys("r", "y")
	if !d.m.statusErr || !strings.Contains(d.m.status, "already revoked") {
		t.Errorf("status %q: want the revoke refused as already revoked", d.m.status)
	}
	bs, err := st.Buckets(context.Background(), chatAB, []int64{0}, 120)
	if err != nil {
		t.Fatal(err)
	}
	if r := bs[0].Slots[10].Slot.Revoke; r == nil || r.UserID != "bob" {
		t.Errorf("stored revoke of seq 11 = %+v, want bob's kept", r)
	}
}

// TestJumpPromptNamesWhatAPersonTypes: : shows the forms it takes as typed
// (not Go's layout string), and a number too long for a seq is neither a
// seq nor a date.
func TestJumpPromptNamesWhatAPersonTypes(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.keys(":")
	view := d.m.View()
	if !strings.Contains(view, "12345, 2024-06-15 or 2024-06-15 14:30") || strings.Contains(view, "2006-01-02") {
		t.Errorf("the jump prompt does not show the forms a person types:\n%s", view)
	}
	d.typeText("99999999999999999999999")
	d.keys("enter")
	if view := d.m.View(); !strings.Contains(view, `"99999999999999999999999" is neither a seq nor a date (12345,`) {
		t.Errorf("a number too long for a seq is not told as neither a seq nor a date:\n%s", view)
	}
}

// TestJumpIntoClearedHistorySaysWhy: a jump below the viewer's window says
// why the window starts there in the same line, in the inspector's words.
func TestJumpIntoClearedHistorySaysWhy(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	clearedBefore41(t)(st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.keys(":")
	d.typeText("30")
	d.keys("enter")
	if view := d.m.View(); !strings.Contains(view, "seq 30 is outside 41..120: history cleared before seq 41: seq_user.min_seq = 41") {
		t.Errorf("a jump into cleared history does not say why:\n%s", view)
	}
}
