package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// The list's first screen waits for its own rows only (issue 28 item 3):
// the order, then the names and newest buckets of the rows on screen; the
// names of the rows below land after it is drawn.

// untilDrawn runs cmd as run does until drawn holds after an update, and
// returns the commands left unrun: what comes after that frame.
func (d *driver) untilDrawn(cmd tea.Cmd, drawn func() bool) []tea.Cmd {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil, tea.QuitMsg:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			_, next := d.m.Update(msg)
			queue = append(queue, next)
			if drawn() {
				return slices.DeleteFunc(queue, func(c tea.Cmd) bool { return c == nil })
			}
		}
	}
	d.t.Fatalf("never drawn; screen:\n%s", d.m.View())
	return nil
}

// runAll settles each of cmds.
func (d *driver) runAll(cmds []tea.Cmd) {
	for _, c := range cmds {
		d.run(c)
	}
}

// firstListFrame opens the UI as alice on 80 conversations at 120x40 (the
// size known before the list is read, as a terminal tells it at once),
// runs it to the first frame that draws her list and returns what is
// left to run.
func firstListFrame(t *testing.T) (*driver, *store.Store, *testBackend, []tea.Cmd) {
	t.Helper()
	st, tb := newTestStore(t, false)
	seedMany(t, st, 80)
	st = store.New(tb, store.Options{}) // round trips counted from here
	opts, _ := testOptions(t, "alice")
	d := &driver{t: t, m: testModel(st, opts).(*Model)}
	d.run(d.sendOnly(tea.WindowSizeMsg{Width: 120, Height: 40}))
	tb.ResetReads()
	rest := d.untilDrawn(d.m.Init(), func() bool { return !d.m.list.Loading() && len(d.m.list.Items()) > 0 })
	return d, st, tb, rest
}

// TestListFirstScreenReadsOnlyItsRows: before the first frame the list
// reads its order and, of the rows on screen only, the names and newest
// buckets; the rows below are named after it, with no bucket read.
func TestListFirstScreenReadsOnlyItsRows(t *testing.T) {
	d, st, tb, rest := firstListFrame(t)
	view := d.m.View()
	items := d.m.list.Items()
	if got := st.Stats().RoundTrips; got != 7 {
		t.Errorf("the first frame came after %d round trips, want 7 (conversation, seq, seq_user, newest slots, users, groups, the screen's buckets)", got)
	}
	whole, _ := tb.ReadKinds()
	if len(whole) > 19 {
		t.Errorf("the first frame waited for %d newest buckets read whole, want those of the rows on a 40-line screen (at most 19)", len(whole))
	}
	for i, it := range items {
		if it.Sum.Last != nil && !strings.Contains(view, it.Name) {
			t.Errorf("row %d %s, not on screen, had its newest bucket read before the first frame", i, it.Sum.ConversationID)
		}
	}
	for _, cid := range []string{"sg_g01", "sg_g03"} { // the first rows: named
		if !strings.Contains(view, "Group "+strings.TrimPrefix(cid, "sg_")) {
			t.Errorf("the first frame does not name %s:\n%s", cid, view)
		}
	}
	last := items[len(items)-1]
	if last.Name != last.Sum.ConversationID {
		t.Errorf("the last row was named %q before the first frame, want its ID %s until its name lands", last.Name, last.Sum.ConversationID)
	}
	if len(rest) == 0 {
		t.Fatal("nothing left to read after the first frame: the rows below it were read before it")
	}
	tb.ResetReads()
	before := st.Stats().RoundTrips
	d.runAll(rest)
	if got := st.Stats().RoundTrips - before; got != 3 {
		t.Errorf("the rows below the first screen took %d round trips, want 3 (users, groups, the notification section's max seqs)", got)
	}
	if reads := tb.ResetReads(); len(reads) != 0 {
		t.Errorf("the rows below the first screen read buckets %v, want none", reads)
	}
	for _, it := range d.m.list.Items() {
		if !strings.HasPrefix(it.Name, "Peer ") && !strings.HasPrefix(it.Name, "Group ") {
			t.Errorf("%s is named %q after the rest landed", it.Sum.ConversationID, it.Name)
		}
	}
	d.keys("G")
	if v := d.m.View(); !strings.Contains(v, "Peer u78") || !strings.Contains(v, "last of si_alice_u78") {
		t.Errorf("the last row is not drawn with its name and preview:\n%s", v)
	}
	// A row of the first screen still opens with no round trip.
	d.keys("g")
	before = st.Stats().RoundTrips
	d.keys("enter")
	if d.m.tl == nil || d.m.tl.ID() != "sg_g01" {
		t.Fatalf("enter did not open sg_g01:\n%s", d.m.View())
	}
	if got := st.Stats().RoundTrips - before; got != 1 {
		t.Errorf("opening sg_g01 took %d round trips, want 1 (its older bucket; the newest came with the list)", got)
	}
}

// TestViewerSwitchDropsTheOldListsLateNames: alice's rows below the first
// screen are still being named when the view switches to bob; her late
// reply is dropped, so bob's rows below his first screen are named from
// his own read, not left with their IDs.
func TestViewerSwitchDropsTheOldListsLateNames(t *testing.T) {
	d, st, _, aliceRest := firstListFrame(t)
	if len(aliceRest) == 0 {
		t.Fatal("nothing of alice's list left to land after her first frame")
	}
	ctx := context.Background()
	for i := range 40 {
		g := fmt.Sprintf("h%02d", i)
		cid := store.GroupChatID(g)
		if _, err := st.InsertMessages(ctx, cid, 1, []*bucket.MsgData{textMsg("bob", "", g, bucket.SessionGroup, 1, "bob's "+g)}); err != nil {
			t.Fatal(err)
		}
		insertRaw(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "bob", ConversationID: cid, ConversationType: 3, GroupID: g})
		insertRaw(t, st, bucket.CollGroup, bucket.Group{GroupID: g, GroupName: "Bobs " + g})
	}
	d.keys("u")
	d.typeText("bob")
	bobRest := d.untilDrawn(d.sendOnly(keyMsg("enter")), func() bool {
		return d.m.list.Owner() == "bob" && !d.m.list.Loading()
	})
	d.runAll(aliceRest) // alice's names land late, into bob's list
	d.runAll(bobRest)
	for _, it := range d.m.list.Items() {
		if !strings.HasPrefix(it.Name, "Bobs ") {
			t.Errorf("bob's %s is named %q, want its group name", it.Sum.ConversationID, it.Name)
		}
	}
	d.keys("G")
	if v := d.m.View(); !strings.Contains(v, "Bobs h39") || strings.Contains(v, "Peer ") {
		t.Errorf("bob's last row is not named, or alice's rows show:\n%s", v)
	}
}

// gatedNames holds back every read of names after the first of each kind
// (the first screen's) until open is closed.
type gatedNames struct {
	*testBackend
	mu           sync.Mutex
	users, group int
	open         chan struct{}
}

func (g *gatedNames) wait(n *int) {
	g.mu.Lock()
	*n++
	later := *n > 1
	g.mu.Unlock()
	if later {
		<-g.open
	}
}

// held is how many reads of names wait at the gate.
func (g *gatedNames) held() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return max(0, g.users-1) + max(0, g.group-1)
}

func (g *gatedNames) Users(ctx context.Context, ids []string) ([]bucket.User, error) {
	g.wait(&g.users)
	return g.testBackend.Users(ctx, ids)
}

func (g *gatedNames) Groups(ctx context.Context, ids []string) ([]bucket.Group, error) {
	g.wait(&g.group)
	return g.testBackend.Groups(ctx, ids)
}

// TestGoldenListRowsNotNamedYet: the bottom of a long list while its names
// are still coming: each row its ID and a dim … for a preview.
func TestGoldenListRowsNotNamedYet(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedMany(t, st, 80)
	g := &gatedNames{testBackend: tb, open: make(chan struct{})}
	t.Cleanup(func() { close(g.open) })
	opts, _ := testOptions(t, "alice")
	gst := store.New(g, store.Options{})
	tm := teatest.NewTestModel(t, testModel(gst, opts), teatest.WithInitialTermSize(100, 30))
	s := &screen{t: t, tm: tm, tb: tb}
	s.waitFor("Group g01", "last of sg_g01")
	s.keys("G")
	s.waitFor("si_alice_u78", "…")
	// The names of the rows below, asked and held back, and the read of the
	// notification section beside them (the bar's ninth round trip) done.
	for g.held() < 1 || gst.Stats().RoundTrips < 9 {
		time.Sleep(time.Millisecond)
	}
	s.check()
}
