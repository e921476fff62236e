package ui

import (
	"context"
	"fmt"
	"testing"

	"github.com/chatlens/chatlens/store"
)

// chatFar holds seqs 1-20 and, ten million buckets later, seqs
// 1,000,000,001-1,000,000,010: a stored bucket at index 10,000,000.
const (
	chatFar = "sg_far"
	farSeq  = 1_000_000_001
)

func seedFar(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	for _, first := range []int64{1, farSeq} {
		var msgs []*store.MsgData
		for i := range 10 {
			text := fmt.Sprintf("far note %d", i)
			if first == 1 && i == 4 {
				text = "the needle"
			}
			msgs = append(msgs, textMsg("alice", "", "far", store.SessionGroup, i, text))
		}
		if _, err := st.InsertMessages(ctx, chatFar, first, msgs); err != nil {
			t.Fatal(err)
		}
	}
	insertRaw(t, st, store.CollConversation,
		store.Conversation{OwnerUserID: "alice", ConversationID: chatFar, ConversationType: 3, GroupID: "far"})
}

// Search once stepped through every bucket index from the newest down: ten
// million of them here, sixteen per find. It scans the stored ones.
func TestSearchScansOnlyStoredBuckets(t *testing.T) {
	st, _ := newTestStore(t, false)
	seedFar(t, st)
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, 120, 40)
	d.open(chatFar)
	before := st.Stats().RoundTrips
	d.keys("/")
	d.typeText("needle")
	d.keys("enter")
	if hits := d.m.tl.search.hits; len(hits) != 1 || hits[0] != 5 {
		t.Errorf("search hits %v, want [5]", hits)
	}
	if trips := st.Stats().RoundTrips - before; trips > 10 {
		t.Errorf("the search took %d round trips", trips)
	}
}
