package ui

import (
	"context"
	"fmt"
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
