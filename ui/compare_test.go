package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// longerChat adds seqs 121-450 to alice and bob's chat (five buckets in
// all), deleted for bob at seq 420: with seq 5 deleted for alice, the two
// differences are four buckets apart.
func longerChat(t *testing.T) func(*store.Store) {
	return func(st *store.Store) {
		ctx := context.Background()
		var more []*bucket.MsgData
		for i := 121; i <= 450; i++ {
			more = append(more, textMsg("alice", "bob", "", bucket.SessionSingle, i, fmt.Sprintf("later %d", i)))
		}
		if _, err := st.InsertMessages(ctx, chatAB, 121, more); err != nil {
			t.Fatal(err)
		}
		if _, err := st.DeleteForMe(ctx, chatAB, []int64{420}, "bob"); err != nil {
			t.Fatal(err)
		}
	}
}

func compareDriver(t *testing.T, w, h int, setup ...func(*store.Store)) *driver {
	t.Helper()
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	for _, s := range setup {
		s(st)
	}
	opts, _ := testOptions(t, "alice")
	return newDriver(t, st, opts, w, h)
}

// TestCompareSingleChatAtOnce: a single chat has one other member, so c
// compares with them without a picker, across the full width; tab brings
// the conversation list back.
func TestCompareSingleChatAtOnce(t *testing.T) {
	d := compareDriver(t, 120, 40)
	d.open(chatAB)
	d.keys("c")
	if d.m.overlay != ovNone || d.m.tl.Compare().With() != "bob" {
		t.Fatalf("c in a single chat: overlay %v, comparing with %q; want no dialog, bob", d.m.overlay, d.m.tl.Compare().With())
	}
	view := d.m.View()
	if !strings.Contains(view, "A as Alice") || !strings.Contains(view, "│ B as Bob") {
		t.Errorf("compare columns are not named:\n%s", view)
	}
	if strings.Contains(view, "Conversations of alice") {
		t.Errorf("the list pane still takes room while comparing:\n%s", view)
	}
	d.keys("tab")
	if view := d.m.View(); !strings.Contains(view, "Conversations of alice") || !strings.Contains(view, "vs Bob") {
		t.Errorf("tab did not bring the list back beside the compare view:\n%s", view)
	}
}

// TestStepBetweenDifferencesLoadsBuckets: ] and [ go to the next and
// previous rows the two viewers see differently, reading the buckets they
// are in, and wrap at the ends with a note.
func TestStepBetweenDifferencesLoadsBuckets(t *testing.T) {
	d := compareDriver(t, 120, 40, longerChat(t))
	d.open(chatAB)
	d.keys("c")
	if _, _, held := d.m.tl.Slot(5); held {
		t.Fatal("bucket 0 is held from the start: the test proves nothing")
	}
	d.keys("[")
	if d.m.tl.Cursor() != 420 {
		t.Fatalf("[ from seq 450 went to %d, want 420 (deleted for bob)", d.m.tl.Cursor())
	}
	if row := rowOf(d.m.View(), 420); !strings.Contains(row, "≠") || !strings.Contains(row, "deleted-for-B") {
		t.Errorf("seq 420 drawn as %q, want ≠ and its reason", row)
	}
	d.keys("[")
	if d.m.tl.Cursor() != 5 {
		t.Fatalf("[ from seq 420 went to %d, want 5 (deleted for alice)", d.m.tl.Cursor())
	}
	if row := rowOf(d.m.View(), 5); !strings.Contains(row, "deleted-for-A") {
		t.Errorf("seq 5 drawn as %q once its bucket was read", row)
	}
	d.keys("[")
	if d.m.tl.Cursor() != 420 || !strings.Contains(d.m.status, "wrapped") {
		t.Errorf("[ from the oldest difference: cursor %d, status %q; want 420 and a note that it wrapped", d.m.tl.Cursor(), d.m.status)
	}
	d.keys("]")
	if d.m.tl.Cursor() != 5 || !strings.Contains(d.m.status, "wrapped") {
		t.Errorf("] from the newest difference: cursor %d, status %q; want 5 and a note that it wrapped", d.m.tl.Cursor(), d.m.status)
	}
}

// TestDifferencesOnly: D hides the rows both see alike; seqs before
// carol's window (seq_user.min_seq 20) collapse into one row.
func TestDifferencesOnly(t *testing.T) {
	d := compareDriver(t, 120, 40, func(st *store.Store) {
		insertRaw(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "carol", ConversationID: chatT, MinSeq: 20})
	})
	d.open(chatT)
	d.keys("c")
	d.typeText("carol")
	d.keys("enter", "D")
	view := d.m.View()
	if !strings.Contains(view, "seqs 1–19 (19)") || !strings.Contains(view, "outside-B-win") {
		t.Errorf("the run outside carol's window is not one row with its reason:\n%s", view)
	}
	if rowOf(view, 25) != "" || rowOf(view, 30) != "" {
		t.Errorf("rows both see alike are still drawn:\n%s", view)
	}
	d.keys("D")
	if rowOf(d.m.View(), 30) == "" {
		t.Errorf("D again does not bring every row back:\n%s", d.m.View())
	}
}

// TestDifferencesOnlyWithNoneActsOnNoHiddenRow: when "differences only"
// shows no row (the two see every seq alike), the row keys say so instead
// of inspecting, copying or writing the hidden seq under the cursor.
func TestDifferencesOnlyWithNoneActsOnNoHiddenRow(t *testing.T) {
	d := compareDriver(t, 120, 40)
	d.open(chatT)
	d.keys("c")
	d.typeText("bob")
	d.keys("enter", "D")
	if view := d.m.View(); !strings.Contains(view, "no differences") {
		t.Fatalf("alice and bob see the team chat differently; the test needs them alike:\n%s", view)
	}
	for _, k := range []string{"i", "y", "T", "r", "d", "m"} {
		d.keys(k)
		if d.m.overlay != ovNone || !strings.Contains(d.m.status, "no difference under the cursor") {
			t.Errorf("%s in differences only with none shown: overlay %v, status %q; want no dialog and a note", k, d.m.overlay, d.m.status)
			d.keys("esc")
		}
	}
	d.keys("D", "i")
	if d.m.overlay == ovNone {
		t.Errorf("i with every row shown again opened nothing (status %q)", d.m.status)
	}
}

// TestReasonColumnOnSmallTerminals: at 80 and at 40 columns the rows keep
// their width and the reason stays readable, not cut with the message text.
func TestReasonColumnOnSmallTerminals(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {40, 20}} {
		w := size[0]
		d := compareDriver(t, w, size[1])
		d.open(chatAB)
		d.jump(5)
		d.keys("c")
		view := d.m.View()
		if row := rowOf(view, 5); !strings.Contains(row, "deleted-for-A") {
			t.Errorf("at %d columns seq 5 is drawn as %q, without its reason", w, row)
		}
		for i, line := range strings.Split(view, "\n") {
			if n := len([]rune(line)); strings.Contains(line, "│") && n != w {
				t.Errorf("at %d columns line %d is %d cells: %q", w, i, n, line)
			}
		}
	}
}

// TestCompareInspectorShowsBothViewers: the inspector in compare shows
// the raw slot beside what each viewer sees and the rule that made it.
func TestCompareInspectorShowsBothViewers(t *testing.T) {
	d := compareDriver(t, 140, 50)
	d.open(chatAB)
	d.jump(5)
	d.keys("c", "i")
	view := d.m.View()
	for _, want := range []string{`del_list    ["alice"]`, "A as alice sees it:", "B as bob sees it:",
		"in del_list of alice", "A and B: deleted for alice only"} {
		if !strings.Contains(view, want) {
			t.Errorf("the compare inspector lacks %q:\n%s", want, view)
		}
	}
}

// TestCompareInspectorOutsideTheWindow: for a seq before carol's window the
// inspector says she is shown nothing, and why.
func TestCompareInspectorOutsideTheWindow(t *testing.T) {
	d := compareDriver(t, 140, 50, func(st *store.Store) {
		insertRaw(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "carol", ConversationID: chatT, MinSeq: 20})
	})
	d.open(chatT)
	d.keys("c")
	d.typeText("carol")
	d.keys("enter", "[", "i")
	view := d.m.View()
	for _, want := range []string{"nothing: the seq is outside their window", "below carol's first visible seq 20", "A and B: outside carol's window"} {
		if !strings.Contains(view, want) {
			t.Errorf("the compare inspector at seq %d lacks %q:\n%s", d.m.tl.Cursor(), want, view)
		}
	}
}

// TestCompareSaysWhatBSeesBeforeAsWindow: alice cleared her history up to
// seq 40 and bob did not: seqs 1-40 are what bob sees and alice does not,
// though the timeline (alice's window) has no row for them.
func TestCompareSaysWhatBSeesBeforeAsWindow(t *testing.T) {
	d := compareDriver(t, 120, 40, clearedBefore41(t))
	d.open(chatAB)
	d.keys("c")
	want := "B also sees seqs 1–40 (40), before A's window: below alice's first visible seq 41"
	if view := d.m.View(); !strings.Contains(view, want) {
		t.Errorf("the compare view does not say %q:\n%s", want, view)
	}
	d.keys("D")
	if view := d.m.View(); !strings.Contains(view, want) {
		t.Errorf("differences only does not say %q:\n%s", want, view)
	}
}

// TestCompareFollowsAWrite: a delete for alice made from the compare view
// becomes a difference at once, counted and reachable with [.
func TestCompareFollowsAWrite(t *testing.T) {
	d := compareDriver(t, 120, 40)
	d.open(chatAB)
	d.jump(10)
	d.keys("c", "d", "y")
	if row := rowOf(d.m.View(), 10); !strings.Contains(row, "deleted-for-A") {
		t.Fatalf("seq 10 after alice deleted it for herself: %q", row)
	}
	d.keys("G", "[")
	if d.m.tl.Cursor() != 10 {
		t.Errorf("[ from the newest went to %d, want the new difference at 10", d.m.tl.Cursor())
	}
}

// TestCompareFarQuotes: alice and carol both see the quotes of revoked seq 3
// as the revoke (OpenIM's controller/msg.go handlerDBMsg rewrites a quote
// for everyone alike), so those quotes are no difference, even when the scan
// reads them in a batch without seq 3; and the row of seq 340, deleted for
// alice only, shows carol's side of the quote as she sees it.
func TestCompareFarQuotes(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedFarQuotes(t, st)
	if _, err := st.DeleteForMe(context.Background(), chatQ, []int64{340}, "alice"); err != nil {
		t.Fatal(err)
	}
	st.FindBatch = 1 // one bucket a step: bucket 3's quotes reach outside it
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatQ)
	d.keys("c")
	if strings.Contains(d.m.tl.Compare().Progress(), "scanning") {
		t.Fatal("the scan for differences did not finish")
	}
	d.keys("D") // a row a difference, a run of them one row
	if differ := seqsOnScreen(d.m.View()); !slices.Equal(differ, []int64{4, 340}) {
		t.Errorf("seqs %v differ, want [4 340]: both deleted for alice only, the quotes of seq 3 alike", differ)
	}
	if row := rowOf(d.m.View(), 340); !strings.Contains(row, `re 3 ↩ "Carol revoked a message"`) {
		t.Errorf("differences only draws seq 340 as %q, want carol's side of the quote resolved", row)
	}
}

// TestSeqsOnlyBSeesAreDifferences: alice cleared her history up to seq 40,
// bob did not, and in alice's window they see every seq alike. The view
// said "B also sees seqs 1–40", then "no differences", "0 seqs differ" and
// "alice and bob see every seq alike". Seqs one viewer sees and the other
// does not are differences: counted, listed and named by ].
func TestSeqsOnlyBSeesAreDifferences(t *testing.T) {
	d := compareDriver(t, 120, 40, clearedBefore41(t)) // seq 5, deleted for alice, is before 41
	d.open(chatAB)
	d.keys("c")
	if strings.Contains(d.m.tl.Compare().Progress(), "scanning") {
		t.Fatal("the scan for differences did not finish")
	}
	if got := d.m.tl.Compare().Progress(); !strings.HasPrefix(got, "40 seqs differ") {
		t.Errorf("the footer says %q, want the 40 seqs only bob sees counted", got)
	}
	d.keys("]")
	if strings.Contains(d.m.status, "alike") || !strings.Contains(d.m.status, "1–40") {
		t.Errorf("] says %q, want the seqs only bob sees named", d.m.status)
	}
	d.keys("D")
	view := d.m.View()
	if strings.Contains(view, "no differences") {
		t.Errorf("differences only says there are none:\n%s", view)
	}
}

// TestCompareInspectorWrapsLongValues: at 80 columns the compare
// inspector cut a client_msg_id (and a long reason) at its column's edge,
// with no wrap or scroll to read the rest. Each value now wraps in its
// column, whole.
func TestCompareInspectorWrapsLongValues(t *testing.T) {
	const id = "35e5274dd7807f8a41f0a067c86dd2a9-0123456789abcdef"
	d := compareDriver(t, 80, 24, func(st *store.Store) {
		m := textMsg("bob", "alice", "", bucket.SessionSingle, 110, "hello 110 from bob")
		m.ClientMsgID = id
		if _, err := st.Backend().SetSlotField(t.Context(), bucket.DocIDForSeq(chatAB, 110), bucket.SlotIndex(110), "msg", m); err != nil {
			t.Fatal(err)
		}
	})
	d.open(chatAB)
	d.keys("c")
	d.jump(110)
	d.keys("i")
	var left strings.Builder
	for _, l := range strings.Split(d.m.View(), "\n") {
		l = strings.TrimPrefix(l, "│")
		col, _, _ := strings.Cut(l, " │ ")
		left.WriteString(strings.ReplaceAll(col, " ", ""))
	}
	if !strings.Contains(left.String(), `"client_msg_id":"`+id+`"`) {
		t.Errorf("the inspector's left column does not hold the whole client_msg_id:\n%s", d.m.View())
	}
}

// TestCompareCellSaysDeletedBeforeRevoked: a message revoked and also
// deleted for B shows in B's column as deleted first, with the deleted
// mark, so the 120-column cell keeps what the reason column says
// (deleted-for-B) rather than cutting it off behind the revoke.
func TestCompareCellSaysDeletedBeforeRevoked(t *testing.T) {
	d := compareDriver(t, 120, 40, func(st *store.Store) {
		if _, err := st.DeleteForMe(context.Background(), chatAB, []int64{7}, "bob"); err != nil { // revoked by bob in the seed
			t.Fatal(err)
		}
	})
	d.open(chatAB)
	d.keys("c")
	d.jump(7)
	var row string
	for _, l := range strings.Split(d.m.View(), "\n") {
		if strings.Contains(l, "deleted-for-B") {
			row = l
		}
	}
	_, b, _ := strings.Cut(row, "≠ ") // the mark between the columns of a row that differs
	if !strings.Contains(b, "✗ ") || !strings.Contains(b, "deleted for Bob") || strings.Contains(b, "⟲") {
		t.Errorf("seq 7, revoked and deleted for bob, does not show deleted in bob's column: %q", row)
	}
}
