package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// burstOf delivers msgs as one read of the terminal does: every key is
// handled before any reply to the reads they ask for.
func (d *driver) burstOf(msgs ...tea.Msg) {
	var cmds []tea.Cmd
	for _, m := range msgs {
		cmds = append(cmds, d.sendOnly(m))
	}
	d.run(tea.Batch(cmds...))
}

// TestCompareBurstFromThePicker: c, carol, enter and ] in one write said
// "Alice and Carol see every seq alike" (the ] was decided before carol's
// window was read and the scan began); pressed one by one the same keys
// wrap to the oldest difference. As a burst they now end where and say
// what they say one by one; so do D and [.
func TestCompareBurstFromThePicker(t *testing.T) {
	t.Parallel()
	for _, last := range []string{"]", "[", "D", "]]"} {
		t.Run(last, func(t *testing.T) {
			one := compareDriver(t, 120, 40, carolFrom20(t))
			one.open(chatT)
			one.keys("c")
			one.typeText("carol")
			one.keys("enter")
			one.typeText(last)

			all := compareDriver(t, 120, 40, carolFrom20(t))
			all.open(chatT)
			all.burstOf(burst("ccarol"), keyMsg("enter"), burst(last))

			if strings.Contains(all.m.status, "alike") || strings.Contains(all.m.status, "looking") {
				t.Errorf("c carol enter %s in one burst says %q", last, all.m.status)
			}
			if all.m.tl.Compare().With() != "carol" || all.m.tl.Cursor() != one.m.tl.Cursor() || all.m.status != one.m.status {
				t.Errorf("c carol enter %s in one burst: comparing %q, cursor %d, status %q; one by one: comparing %q, cursor %d, status %q",
					last, all.m.tl.Compare().With(), all.m.tl.Cursor(), all.m.status, one.m.tl.Compare().With(), one.m.tl.Cursor(), one.m.status)
			}
			if a, o := all.m.tl.Compare().Progress(), one.m.tl.Compare().Progress(); a != o {
				t.Errorf("the footer after the burst says %q, one by one %q", a, o)
			}
		})
	}
}

// manyDifferences adds seqs 121-2000 to alice and bob's chat, one in
// every bucket deleted for bob: with seq 5 deleted for alice, twenty
// differences in twenty buckets, more than the timeline holds.
func manyDifferences(t *testing.T) func(*store.Store) {
	return func(st *store.Store) {
		ctx := context.Background()
		var more []*bucket.MsgData
		for i := 121; i <= 2000; i++ {
			more = append(more, textMsg("alice", "bob", "", bucket.SessionSingle, i, fmt.Sprintf("later %d", i)))
		}
		if _, err := st.InsertMessages(ctx, chatAB, 121, more); err != nil {
			t.Fatal(err)
		}
		var seqs []int64
		for s := int64(150); s <= 2000; s += 100 {
			seqs = append(seqs, s)
		}
		if _, err := st.DeleteForMe(ctx, chatAB, seqs, "bob"); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNextDifferenceBurstsCountEveryKey: g, then ]]]]] in one write four
// times, went to differences 1, 2, 3 and 5, each ] stepping from where the
// cursor was before the ] before it had landed; each burst now goes five
// differences on, as the same keys one by one, and so does [[[[[ back.
func TestNextDifferenceBurstsCountEveryKey(t *testing.T) {
	t.Parallel()
	one := compareDriver(t, 120, 40, manyDifferences(t))
	all := compareDriver(t, 120, 40, manyDifferences(t))
	for _, d := range []*driver{one, all} {
		d.open(chatAB)
		d.keys("c", "g")
		if strings.Contains(d.m.tl.Compare().Progress(), "scanning") {
			t.Fatal("the scan for differences did not finish")
		}
	}
	for round, keys := range []string{"]]]]]", "]]]]]", "]]]]]", "]]]]]", "[[[[[", "[[[[["} {
		one.typeText(keys)
		all.send(burst(keys))
		if all.m.tl.Cursor() != one.m.tl.Cursor() || all.m.status != one.m.status {
			t.Fatalf("burst %d (%s): cursor %d, status %q; one by one: cursor %d, status %q",
				round+1, keys, all.m.tl.Cursor(), all.m.status, one.m.tl.Cursor(), one.m.status)
		}
		if round < 4 {
			want := fmt.Sprintf("difference %d of 20 ", 5*(round+1))
			if got := all.m.tl.Compare().Progress(); !strings.HasPrefix(got, want) {
				t.Errorf("after burst %d the footer says %q, want %q", round+1, got, want)
			}
		}
	}
}
