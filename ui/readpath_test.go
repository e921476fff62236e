package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/pages/list"
)

// What the UI's read path costs in backend round trips (Store.Stats), the
// contract of issue 6: the conversation list in a constant number however
// many conversations there are; opening one costs its bucket batches only,
// because the window and the newest bucket come from the list; switching
// viewer reads that viewer's window and no bucket.

// maxSeqCache is a cache layer that knows every conversation's max seq (as
// Redis does in a live deployment) and holds no slot.
type maxSeqCache struct{ max map[string]int64 }

func (c maxSeqCache) Slots(context.Context, string, []int64) (map[int64]*bucket.Slot, error) {
	return map[int64]*bucket.Slot{}, nil
}
func (c maxSeqCache) Invalidate(context.Context, string, []int64) error { return nil }
func (c maxSeqCache) MaxSeqs(_ context.Context, cids []string) (map[string]int64, error) {
	out := map[string]int64{}
	for _, cid := range cids {
		if m, ok := c.max[cid]; ok {
			out[cid] = m
		}
	}
	return out, nil
}
func (c maxSeqCache) ReadSeqs(context.Context, string, []string) (map[string]int64, error) {
	return map[string]int64{}, nil
}
func (c maxSeqCache) ReadSeqsOf(context.Context, string, []string) (map[string]int64, error) {
	return map[string]int64{}, nil
}
func (c maxSeqCache) RaiseReadSeq(context.Context, string, string, int64) error { return nil }
func (c maxSeqCache) Describe() string                                          { return "redis test" }
func (c maxSeqCache) Close() error                                              { return nil }

func TestListLoadCostsConstantRoundTrips(t *testing.T) {
	// conversation, seq, seq_user, one find of every newest bucket (for max
	// seq, or for the previews when a cache knew max seq), user, group; past
	// KeepNewest rows, the find reads only the newest slots, one more
	// reads the first screen's buckets whole, and the names of the rows
	// below it come after it (user, group).
	for _, withCache := range []bool{false, true} {
		for _, n := range []int{3, list.KeepNewest + 16} {
			want := int64(7) // the last: the max seqs of the notification section (none here)
			if n > list.KeepNewest {
				want = 10
			}
			t.Run(fmt.Sprintf("%d conversations, cache %v", n, withCache), func(t *testing.T) {
				st, tb := newTestStore(t, false)
				maxSeqs := seedMany(t, st, n)
				opts := store.Options{}
				if withCache {
					opts.Cache = maxSeqCache{max: maxSeqs}
				}
				st = store.New(tb, opts)
				tb.ResetReads()
				uopts, _ := testOptions(t, "alice")
				d := newDriver(t, st, uopts, 120, 40+2*n)
				if got := st.Stats().RoundTrips; got != want {
					t.Errorf("loading the list of %d conversations took %d round trips, want %d", n, got, want)
				}
				view := d.m.View()
				if len(d.m.list.Items()) != n {
					t.Fatalf("list of %d items:\n%s", len(d.m.list.Items()), view)
				}
				for _, it := range d.m.list.Items() {
					if !strings.HasPrefix(it.Name, "Peer ") && !strings.HasPrefix(it.Name, "Group ") {
						t.Errorf("%s named %q, not from the naming collections", it.Sum.ConversationID, it.Name)
					}
					if !strings.Contains(view, "last of "+it.Sum.ConversationID) {
						t.Errorf("no preview for %s", it.Sum.ConversationID)
					}
				}
				for id, c := range tb.ResetReads() {
					if c != 1 {
						t.Errorf("bucket %s read %d times for the list", id, c)
					}
				}
				// Every newest bucket of a short list; of a long one, those
				// of the first screen's rows.
				held := 0
				for i, it := range d.m.list.Items() {
					if it.Sum.Last != nil {
						held++
						if held != i+1 {
							t.Errorf("row %d holds its newest bucket, below a row that does not", i)
						}
					}
				}
				if n <= list.KeepNewest && held != n || n > list.KeepNewest && (held < 10 || held > 40) {
					t.Errorf("the list holds %d newest buckets of %d rows", held, n)
				}
				// Beyond them, opening still costs one find (the newest
				// bucket and the one before it).
				last := d.m.list.Items()[n-1].Sum.ConversationID
				before := st.Stats().RoundTrips
				d.open(last)
				if got := st.Stats().RoundTrips - before; got != 1 {
					t.Errorf("opening %s took %d round trips, want 1", last, got)
				}
			})
		}
	}
}

func TestOpeningAConversationReadsOnlyBuckets(t *testing.T) {
	cases := []struct {
		name    string
		cid     string
		cache   bool
		batches int64 // finds needed beyond what the list read
		newest  int64 // the seq drawn at the bottom
	}{
		// The list read bucket 1 for the window; bucket 0 fills the screen.
		{"two buckets", chatAB, false, 1, 120},
		// The one bucket came with the window: nothing left to read.
		{"one bucket", chatT, false, 0, 30},
		// The cache knew max seq, so no bucket came with the window; the
		// list read it for the preview, and the timeline reuses that.
		{"cache knew max seq", chatAB, true, 1, 120},
		// alice's conversation.max_seq ends her window in bucket 1, before
		// the newest bucket the list read (bucket 2).
		{"capped window", "sg_capped", false, 1, 150},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, tb := newTestStore(t, false)
			seedSmall(t, st)
			capped := make([]*bucket.MsgData, 250)
			for i := range capped {
				capped[i] = textMsg("bob", "", "capped", bucket.SessionGroup, i+1, fmt.Sprintf("capped %d", i+1))
			}
			if _, err := st.InsertMessages(context.Background(), "sg_capped", 1, capped); err != nil {
				t.Fatal(err)
			}
			insertRaw(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "alice",
				ConversationID: "sg_capped", ConversationType: 3, GroupID: "capped", MaxSeq: 150})
			if c.cache {
				st = store.New(tb, store.Options{Cache: maxSeqCache{max: map[string]int64{chatAB: 120, chatT: 30}}})
			}
			opts, _ := testOptions(t, "alice")
			d := newDriver(t, st, opts, 120, 40)
			listReads := tb.ResetReads()
			before := st.Stats().RoundTrips
			d.open(c.cid)
			if got := st.Stats().RoundTrips - before; got != c.batches {
				t.Errorf("opening took %d round trips, want %d (bucket batches only)", got, c.batches)
			}
			for id, n := range tb.ResetReads() {
				if listReads[id] > 0 {
					t.Errorf("bucket %s read again on open, %d times: the list had read it", id, n)
				}
			}
			screen := seqsOnScreen(d.m.View())
			if len(screen) == 0 || screen[len(screen)-1] != c.newest || d.m.tl.Cursor() != c.newest {
				t.Errorf("screen ends at %v with cursor %d, want %d", screen[len(screen)-1:], d.m.tl.Cursor(), c.newest)
			}
			if len(screen) < 30 && c.newest > 30 {
				t.Errorf("first screen shows only %d rows", len(screen))
			}
		})
	}
}

// listLoadCost is what loading owner's conversation list costs: round
// trips and the buckets read for the previews; and the rows it gives.
func listLoadCost(t *testing.T, d *driver, st *store.Store, tb *testBackend, owner string) (int64, map[string]int, []string) {
	t.Helper()
	tb.ResetReads()
	before := st.Stats().RoundTrips
	l := list.New(d.m.e, owner)
	for cmd := l.Load(); cmd != nil; { // the order, the first screen, the rest
		res, ok := l.Reply(cmd(), "")
		if !ok || l.Err() != nil {
			t.Fatalf("reading %s's list: %v", owner, l.Err())
		}
		cmd = res.Cmd
	}
	return st.Stats().RoundTrips - before, tb.ResetReads(), listRows(l.Items())
}

// listRows is what the list shows of each row: name, unread count, preview.
func listRows(items []list.Item) []string {
	var out []string
	for _, it := range items {
		last := ""
		if it.Preview != nil {
			last = fmt.Sprintf("%s seq %d", it.PreviewDoc, it.Preview.Seq)
		}
		out = append(out, fmt.Sprintf("%s %s unread %d last %s", it.Sum.ConversationID, it.Name, it.Sum.Unread(), last))
	}
	return out
}

// TestViewerSwitchReadsNoBucket: a viewer switch re-projects the held
// buckets; what it reads is the new viewer's conversation and seq_user
// documents (their list and their window of the open conversation, in the
// same two reads) and the members; the list it shows is the one a fresh
// read gives, with the previews and names of the list shown reused.
func TestViewerSwitchReadsNoBucket(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB)
	_, _, bobRows := listLoadCost(t, d, st, tb, "bob")
	_, _, aliceRows := listLoadCost(t, d, st, tb, "alice")
	before := st.Stats().RoundTrips
	d.keys("V") // to bob, whose window is not known yet
	if d.m.tl.Viewer() != "bob" {
		t.Fatalf("V switched to %q", d.m.tl.Viewer())
	}
	if reads := tb.ResetReads(); len(reads) != 0 {
		t.Errorf("switching viewer read buckets %v, want none: alice's list holds bob's previews", reads)
	}
	// bob's conversation and seq_user documents; the members follow on V
	// (a single chat's members come from its ID: one read, for nicknames).
	trips := st.Stats().RoundTrips - before
	if trips != 2+1+1 {
		t.Errorf("switching viewer took %d round trips, want 2 for bob's list and window, 1 for the members (the user collection), 1 for the notification section's max seqs", trips)
	}
	if got := listRows(d.m.list.Items()); !slices.Equal(got, bobRows) {
		t.Errorf("bob's list after the switch:\n%s\nwant, as read afresh:\n%s", strings.Join(got, "\n"), strings.Join(bobRows, "\n"))
	}
	if !strings.Contains(d.m.View(), "Bob read up to here (seq 118)") {
		t.Errorf("bob's read line is not drawn:\n%s", d.m.View())
	}
	// Back to alice, and to bob again: both windows are known now; only
	// the lists' own documents are read again (their counts may have moved).
	before = st.Stats().RoundTrips
	d.keys("V")
	if got := listRows(d.m.list.Items()); !slices.Equal(got, aliceRows) {
		t.Errorf("alice's list after switching back:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(aliceRows, "\n"))
	}
	d.keys("V")
	if got := st.Stats().RoundTrips - before; got != 2+2+2 {
		t.Errorf("switching between known viewers took %d round trips, want 4 for the two lists' conversation and seq_user documents, 2 for their notification sections' max seqs", got)
	}
}

func TestMembersAreReadOnFirstNeed(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatT)
	before := st.Stats().RoundTrips // the members were not read on open: the pickers read them
	d.keys("v")
	if d.m.overlay != ovPicker || !strings.Contains(d.m.View(), "carol  Carol  (admin)") {
		t.Errorf("the picker does not list the members with their roles:\n%s", d.m.View())
	}
	d.keys("esc", "v", "esc", "c", "esc")
	if got := st.Stats().RoundTrips - before; got != 2 {
		t.Errorf("three pickers took %d round trips, want 2 (group members and names, once)", got)
	}
}

func TestRevokeWaitsForTheRevokersRole(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatT)
	wait := d.sendOnly(keyMsg("r"))
	if d.m.overlay != ovConfirm || d.m.confirm.Run != nil || !strings.Contains(d.m.View(), "planning…") {
		t.Fatalf("before its plan, the revoke dialog is not a confirmable-nothing \"planning…\":\n%s", d.m.View())
	}
	d.keys("y") // no key confirms a plan not drawn
	if d.m.overlay != ovConfirm || len(d.m.writes) > 0 {
		t.Fatal("y confirmed a revoke whose plan was not drawn")
	}
	d.run(wait)
	if d.m.overlay != ovConfirm || !strings.Contains(d.m.View(), "role owner") {
		t.Fatalf("no confirmation with alice's role once the members arrived:\n%s", d.m.View())
	}
	d.keys("y")
	bs, err := st.Buckets(context.Background(), chatT, []int64{0}, 30)
	if err != nil {
		t.Fatal(err)
	}
	if rv := bs[0].Slots[bucket.SlotIndex(30)].Slot.Revoke; rv == nil || rv.Role != bucket.RoleOwner || rv.Nickname != "Alice" {
		t.Errorf("stored revoke %+v, want alice's owner role and nickname", rv)
	}
}

// TestMarkReadReadsBackOnlyTheReadSeq: after a mark read, the held bucket
// written is read again and, of the list and the window, only the
// reader's read seq, which is all a mark read moves there (one round trip;
// before, the whole list and window again: 6 and 2). The list's count and
// the read line show the store's read seq.
func TestMarkReadReadsBackOnlyTheReadSeq(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedSmall(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatAB) // alice has read up to 100 of 120
	before := st.Stats().RoundTrips
	d.keys("m", "y")
	// The checks (the user; the window: seq, seq_user, conversation, the
	// newest bucket), the write (bucket 1, the read seq), then the held
	// bucket 1 and the read seq read back.
	if got := st.Stats().RoundTrips - before; got != 5+2+2 {
		t.Errorf("mark read of 101-120 took %d round trips, want 9", got)
	}
	if n := unreadOf(t, d, chatAB); n != 0 {
		t.Errorf("list unread %d after the mark read, want 0", n)
	}
	if r := d.m.tl.Window().ReadSeq; r != 120 {
		t.Errorf("read seq on screen %d, want the store's 120", r)
	}
}
