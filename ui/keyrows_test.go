package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

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
			m := textMsg("alice", "", "holes", bucket.SessionGroup, int(seq), "message")
			m.Seq = seq
			doc.Msgs[bucket.SlotIndex(seq)].Msg = m
		}
		if err := st.Backend().InsertBucket(ctx, doc); err != nil {
			t.Fatal(err)
		}
	}
	insertRaw(t, st, bucket.CollConversation, bucket.Conversation{OwnerUserID: "alice", ConversationID: cid, ConversationType: 3, GroupID: "holes"})
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
			st, _ := newTestStore(t, false)
			holesAt(t, st, "sg_holes", 13000, 12498, 12503)
			opts, _ := testOptions(t, "alice")
			d := newDriver(t, st, opts, 120, 40)
			d.open("sg_holes")
			d.jump(c.from)
			d.send(burst(strings.Repeat(c.keys, 300)))
			if d.m.tl.Cursor() != c.to {
				t.Errorf("300 %s in one burst from %d: cursor at %d, want %d", c.keys, c.from, d.m.tl.Cursor(), c.to)
			}
			// The same presses one at a time end on the same row.
			d.jump(c.from)
			for range 300 {
				d.keys(c.keys)
			}
			if d.m.tl.Cursor() != c.to {
				t.Errorf("300 single %s from %d: cursor at %d, want %d", c.keys, c.from, d.m.tl.Cursor(), c.to)
			}
		})
	}
}

// TestViewerBurstCyclesThePickersList: V V in one burst, before the
// members are read, views as whom two single presses do: the picker's list
// (the members, highest role first: alice, carol, bob), never the senders
// known before it is read (before: carol, the second of a list by ID).
func TestViewerBurstCyclesThePickersList(t *testing.T) {
	want := ""
	for _, burstOf := range []bool{false, true} {
		st, _ := newTestStore(t, false)
		seedSmall(t, st)
		opts, _ := testOptions(t, "alice")
		d := newDriver(t, st, opts, 120, 40)
		d.open(chatT)
		if burstOf {
			d.send(burst("VV"))
		} else {
			d.keys("V")
			d.keys("V")
		}
		got := d.m.tl.Viewer()
		if got != "bob" {
			t.Errorf("V V (burst %v) from alice: viewing as %s, want bob (alice, carol, bob)", burstOf, got)
		}
		if want != "" && got != want {
			t.Errorf("a burst views as %s, single presses as %s", got, want)
		}
		want = got
		if !strings.Contains(d.m.View(), "as Bob") {
			t.Errorf("the header does not name bob:\n%s", d.m.View())
		}
	}
}
