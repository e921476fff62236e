package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestBurstRYAsksAndWaits: r and y read in one go (fast typing, a paste)
// open the revoke dialog and leave it asking: y cannot confirm a plan not
// yet on screen, so nothing is written until the drawn plan is answered.
func TestBurstRYAsksAndWaits(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	d.jump(11) // alice's own
	read := d.sendOnly(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("ry")})
	if d.m.overlay != ovConfirm || !strings.Contains(d.m.View(), "planning…") || len(d.m.writes) > 0 {
		t.Fatalf("after r y in one burst: overlay %v, %d writes; want the dialog planning, nothing sent:\n%s", d.m.overlay, len(d.m.writes), d.m.View())
	}
	d.run(read)
	if d.m.overlay != ovConfirm || d.m.confirm.Title != "Revoke for everyone?" || len(d.m.writes) > 0 {
		t.Fatalf("once planned: dialog %q, %d writes; want it asking, nothing sent", d.m.confirm.Title, len(d.m.writes))
	}
	revoked := func() bool {
		bs, err := st.Buckets(context.Background(), chatAB, []int64{0}, 120)
		if err != nil {
			t.Fatal(err)
		}
		return bs[0].Slots[10].Slot.Revoke != nil
	}
	if revoked() {
		t.Fatal("seq 11 revoked before the drawn plan was confirmed")
	}
	d.keys("y")
	if !revoked() {
		t.Errorf("y on the drawn plan did not revoke seq 11; status %q", d.m.status)
	}
}

// TestDialogShowsTheDryRunsLines: the dialog is the row asked on and the
// store's plan in the lines `--dry-run` prints (store.Plan.Lines).
func TestDialogShowsTheDryRunsLines(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB) // alice has read up to 100
	d.jump(112)
	d.keys("m")
	want := []string{"seq 112: hello 112 from bob", "would mark seq 101-112 of si_alice_bob read by alice",
		"alice's read seq: 100 -> 112", "notifications: none: a write in storage reaches no device"}
	if got := d.m.confirm.Lines; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("mark read dialog:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
