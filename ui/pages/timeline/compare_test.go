package timeline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/uitest"
)

// comparePage is alice's list on uitest.SeedSmall and what setup adds, on
// a screen of w x h cells.
func comparePage(t *testing.T, w, h int, setup ...func(*store.Store)) *page {
	t.Helper()
	st, _ := uitest.NewStore(t, false)
	uitest.SeedSmall(t, st)
	for _, s := range setup {
		s(st)
	}
	return newPage(t, st, "alice", w, h)
}

// compareWith is c in a group, then id chosen in the picker the root
// opens: the root gives the choice to the compare view.
func (p *page) compareWith(id string) {
	p.t.Helper()
	p.status = ""
	cmd, pick := p.tl.Compare().Toggle()
	if !pick {
		p.t.Fatal("c in a group asks nobody whom to compare with")
	}
	p.do(cmd) // the members the picker offers
	p.do(p.tl.Compare().Set(id))
}

// longerChat adds seqs 121-450 to alice and bob's chat (five buckets in
// all), deleted for bob at seq 420: with seq 5 deleted for alice, the two
// differences are four buckets apart.
func longerChat(t *testing.T) func(*store.Store) {
	return func(st *store.Store) {
		ctx := context.Background()
		var more []*bucket.MsgData
		for i := 121; i <= 450; i++ {
			more = append(more, uitest.TextMsg("alice", "bob", "", bucket.SessionSingle, i, fmt.Sprintf("later %d", i)))
		}
		if _, err := st.InsertMessages(ctx, uitest.ChatAB, 121, more); err != nil {
			t.Fatal(err)
		}
		if _, err := st.DeleteForMe(ctx, uitest.ChatAB, []int64{420}, "bob"); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStepBetweenDifferencesLoadsBuckets: ] and [ go to the next and
// previous rows the two viewers see differently, reading the buckets they
// are in, and wrap at the ends with a note.
func TestStepBetweenDifferencesLoadsBuckets(t *testing.T) {
	p := comparePage(t, 120, 40, longerChat(t))
	p.open(uitest.ChatAB)
	p.compare()
	if _, _, held := p.tl.Slot(5); held {
		t.Fatal("bucket 0 is held from the start: the test proves nothing")
	}
	p.keys("[")
	if p.tl.Cursor() != 420 {
		t.Fatalf("[ from seq 450 went to %d, want 420 (deleted for bob)", p.tl.Cursor())
	}
	if row := uitest.RowOf(p.view(), 420); !strings.Contains(row, "≠") || !strings.Contains(row, "deleted-for-B") {
		t.Errorf("seq 420 drawn as %q, want ≠ and its reason", row)
	}
	p.keys("[")
	if p.tl.Cursor() != 5 {
		t.Fatalf("[ from seq 420 went to %d, want 5 (deleted for alice)", p.tl.Cursor())
	}
	if row := uitest.RowOf(p.view(), 5); !strings.Contains(row, "deleted-for-A") {
		t.Errorf("seq 5 drawn as %q once its bucket was read", row)
	}
	p.keys("[")
	if p.tl.Cursor() != 420 || !strings.Contains(p.status, "wrapped") {
		t.Errorf("[ from the oldest difference: cursor %d, status %q; want 420 and a note that it wrapped", p.tl.Cursor(), p.status)
	}
	p.keys("]")
	if p.tl.Cursor() != 5 || !strings.Contains(p.status, "wrapped") {
		t.Errorf("] from the newest difference: cursor %d, status %q; want 5 and a note that it wrapped", p.tl.Cursor(), p.status)
	}
}

// TestDifferencesOnly: D hides the rows both see alike; seqs before
// carol's window (seq_user.min_seq 20) collapse into one row.
func TestDifferencesOnly(t *testing.T) {
	p := comparePage(t, 120, 40, func(st *store.Store) {
		uitest.Insert(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "carol", ConversationID: uitest.ChatT, MinSeq: 20})
	})
	p.open(uitest.ChatT)
	p.compareWith("carol") // c, the picker, carol, enter
	p.keys("D")
	view := p.view()
	if !strings.Contains(view, "seqs 1–19 (19)") || !strings.Contains(view, "outside-B-win") {
		t.Errorf("the run outside carol's window is not one row with its reason:\n%s", view)
	}
	if uitest.RowOf(view, 25) != "" || uitest.RowOf(view, 30) != "" {
		t.Errorf("rows both see alike are still drawn:\n%s", view)
	}
	p.keys("D")
	if uitest.RowOf(p.view(), 30) == "" {
		t.Errorf("D again does not bring every row back:\n%s", p.view())
	}
}

// TestCompareInspectorShowsBothViewers: the inspector in compare shows
// the raw slot beside what each viewer sees and the rule that made it.
func TestCompareInspectorShowsBothViewers(t *testing.T) {
	p := comparePage(t, 140, 50)
	p.open(uitest.ChatAB)
	p.jump(5)
	p.compare()
	view := p.inspect()
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
	p := comparePage(t, 140, 50, func(st *store.Store) {
		uitest.Insert(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "carol", ConversationID: uitest.ChatT, MinSeq: 20})
	})
	p.open(uitest.ChatT)
	p.compareWith("carol") // c, the picker, carol, enter
	p.keys("[")
	view := p.inspect()
	for _, want := range []string{"nothing: the seq is outside their window", "below carol's first visible seq 20", "A and B: outside carol's window"} {
		if !strings.Contains(view, want) {
			t.Errorf("the compare inspector at seq %d lacks %q:\n%s", p.tl.Cursor(), want, view)
		}
	}
}

// TestCompareSaysWhatBSeesBeforeAsWindow: alice cleared her history up to
// seq 40 and bob did not: seqs 1-40 are what bob sees and alice does not,
// though the timeline (alice's window) has no row for them.
func TestCompareSaysWhatBSeesBeforeAsWindow(t *testing.T) {
	p := comparePage(t, 120, 40, func(st *store.Store) { uitest.ClearedBefore41(t, st) })
	p.open(uitest.ChatAB)
	p.compare()
	want := "B also sees seqs 1–40 (40), before A's window: below alice's first visible seq 41"
	if view := p.view(); !strings.Contains(view, want) {
		t.Errorf("the compare view does not say %q:\n%s", want, view)
	}
	p.keys("D")
	if view := p.view(); !strings.Contains(view, want) {
		t.Errorf("differences only does not say %q:\n%s", want, view)
	}
}

// TestCompareFarQuotes: alice and carol both see the quotes of revoked seq 3
// as the revoke (OpenIM's controller/msg.go handlerDBMsg rewrites a quote
// for everyone alike), so those quotes are no difference, even when the scan
// reads them in a batch without seq 3; and the row of seq 340, deleted for
// alice only, shows carol's side of the quote as she sees it.
func TestCompareFarQuotes(t *testing.T) {
	st, _ := uitest.NewStore(t, false)
	uitest.SeedFarQuotes(t, st)
	if _, err := st.DeleteForMe(context.Background(), uitest.ChatQ, []int64{340}, "alice"); err != nil {
		t.Fatal(err)
	}
	st.FindBatch = 1 // one bucket a step: bucket 3's quotes reach outside it
	p := newPage(t, st, "alice", 120, 40)
	p.open(uitest.ChatQ)
	p.compare()
	if strings.Contains(p.tl.Compare().Progress(), "scanning") {
		t.Fatal("the scan for differences did not finish")
	}
	p.keys("D") // a row a difference, a run of them one row
	if differ := uitest.SeqsOnScreen(p.view()); !slices.Equal(differ, []int64{4, 340}) {
		t.Errorf("seqs %v differ, want [4 340]: both deleted for alice only, the quotes of seq 3 alike", differ)
	}
	if row := uitest.RowOf(p.view(), 340); !strings.Contains(row, `re 3 ↩ "Carol revoked a message"`) {
		t.Errorf("differences only draws seq 340 as %q, want carol's side of the quote resolved", row)
	}
}

// TestSeqsOnlyBSeesAreDifferences: alice cleared her history up to seq 40,
// bob did not, and in alice's window they see every seq alike. The view
// said "B also sees seqs 1–40", then "no differences", "0 seqs differ" and
// "alice and bob see every seq alike". Seqs one viewer sees and the other
// does not are differences: counted, listed and named by ].
func TestSeqsOnlyBSeesAreDifferences(t *testing.T) {
	p := comparePage(t, 120, 40, func(st *store.Store) { uitest.ClearedBefore41(t, st) }) // seq 5, deleted for alice, is before 41
	p.open(uitest.ChatAB)
	p.compare()
	if strings.Contains(p.tl.Compare().Progress(), "scanning") {
		t.Fatal("the scan for differences did not finish")
	}
	if got := p.tl.Compare().Progress(); !strings.HasPrefix(got, "40 seqs differ") {
		t.Errorf("the footer says %q, want the 40 seqs only bob sees counted", got)
	}
	p.keys("]")
	if strings.Contains(p.status, "alike") || !strings.Contains(p.status, "1–40") {
		t.Errorf("] says %q, want the seqs only bob sees named", p.status)
	}
	p.keys("D")
	view := p.view()
	if strings.Contains(view, "no differences") {
		t.Errorf("differences only says there are none:\n%s", view)
	}
}

// TestCompareCellSaysDeletedBeforeRevoked: a message revoked and also
// deleted for B shows in B's column as deleted first, with the deleted
// mark, so the 120-column cell keeps what the reason column says
// (deleted-for-B) rather than cutting it off behind the revoke.
func TestCompareCellSaysDeletedBeforeRevoked(t *testing.T) {
	p := comparePage(t, 120, 40, func(st *store.Store) {
		if _, err := st.DeleteForMe(context.Background(), uitest.ChatAB, []int64{7}, "bob"); err != nil { // revoked by bob in the seed
			t.Fatal(err)
		}
	})
	p.open(uitest.ChatAB)
	p.compare()
	p.jump(7)
	var row string
	for _, l := range strings.Split(p.view(), "\n") {
		if strings.Contains(l, "deleted-for-B") {
			row = l
		}
	}
	_, b, _ := strings.Cut(row, "≠ ") // the mark between the columns of a row that differs
	if !strings.Contains(b, "✗ ") || !strings.Contains(b, "deleted for Bob") || strings.Contains(b, "⟲") {
		t.Errorf("seq 7, revoked and deleted for bob, does not show deleted in bob's column: %q", row)
	}
}
