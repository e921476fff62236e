package timeline

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/uitest"
)

// burst is keys read from the terminal in one go, as the root's
// handleKeys gives them: one rune at a time inside the timeline's burst,
// whose read ahead comes after the last.
func (p *page) burst(keys string) {
	p.status = ""
	p.tl.Moves().BeginBurst()
	var cmds []tea.Cmd
	for _, r := range keys {
		cmds = append(cmds, p.tl.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
	}
	p.do(tea.Batch(append(cmds, p.tl.Moves().EndBurst())...))
}

// holesAt writes a group of n messages as alice's, with no message at
// seqs from..to: a run of holes, one row.
func holesAt(t *testing.T, st *store.Store, cid string, n int, from, to int64) {
	t.Helper()
	ctx := context.Background()
	for idx := int64(0); idx <= bucket.BucketIndex(int64(n)); idx++ {
		doc := bucket.NewDoc(bucket.DocID(cid, idx))
		for seq := bucket.FirstSeq(idx); seq <= min(bucket.LastSeq(idx), int64(n)); seq++ {
			if seq >= from && seq <= to {
				continue
			}
			m := uitest.TextMsg("alice", "", "holes", bucket.SessionGroup, int(seq), "message")
			m.Seq = seq
			doc.Msgs[bucket.SlotIndex(seq)].Msg = m
		}
		if err := st.Backend().InsertBucket(ctx, doc); err != nil {
			t.Fatal(err)
		}
	}
	uitest.Insert(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "alice", ConversationID: cid, ConversationType: 3, GroupID: "holes"})
}

// TestBurstOverARunOfHolesCountsItAsOneRow: a held k or j (one burst of 300)
// across the run of holes 12498-12503, with none of the buckets it crosses
// read yet, lands where 300 single presses land, the run one row: before,
// each k past what was read started a search for the next message that
// replaced the last (the cursor stopped at 12497), and a burst of j counted
// the run as six rows (12550).
func TestBurstOverARunOfHolesCountsItAsOneRow(t *testing.T) {
	for _, c := range []struct {
		keys     string
		from, to int64
	}{
		{"k", 12700, 12395}, // 196 rows to 12504, the run, 12497, 102 more
		{"j", 12250, 12555}, // 247 rows to 12497, the run, 12504, 51 more
	} {
		t.Run(c.keys, func(t *testing.T) {
			st, _ := uitest.NewStore(t, false)
			holesAt(t, st, "sg_holes", 13000, 12498, 12503)
			p := newPage(t, st, "alice", 120, 40)
			p.open("sg_holes")
			p.jump(c.from)
			p.burst(strings.Repeat(c.keys, 300))
			if p.tl.Cursor() != c.to {
				t.Errorf("300 %s in one burst from %d: cursor at %d, want %d", c.keys, c.from, p.tl.Cursor(), c.to)
			}
			// The same presses one at a time end on the same row.
			p.jump(c.from)
			for range 300 {
				p.keys(c.keys)
			}
			if p.tl.Cursor() != c.to {
				t.Errorf("300 single %s from %d: cursor at %d, want %d", c.keys, c.from, p.tl.Cursor(), c.to)
			}
		})
	}
}
