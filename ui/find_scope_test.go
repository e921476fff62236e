package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// I looks in the open conversation first, then in the viewer's (the
// ticket names a user), and offers every conversation after a miss.

// searchedBuckets counts the buckets a find by ID looks into: those a
// scoped query names, and every bucket of a conversation scanned whole.
type searchedBuckets struct {
	*testBackend
	mu sync.Mutex
	n  int
}

func (b *searchedBuckets) FindMsgDocIDsIn(ctx context.Context, ids []string, field, value string) ([]string, error) {
	b.mu.Lock()
	b.n += len(ids)
	b.mu.Unlock()
	return b.testBackend.FindMsgDocIDsIn(ctx, ids, field, value)
}

func (b *searchedBuckets) FindMsgDocIDs(ctx context.Context, cid, field, value string) ([]string, error) {
	ids, err := b.testBackend.BucketIDs(ctx, cid)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.n += len(ids)
	b.mu.Unlock()
	return b.testBackend.FindMsgDocIDs(ctx, cid, field, value)
}

func (b *searchedBuckets) take() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.n
	b.n = 0
	return n
}

// seedOthers writes five groups alice is not in, three buckets each,
// ahead of hers in doc_id order; the message "elsewhere" is in the last.
func seedOthers(t *testing.T, st *store.Store) {
	t.Helper()
	for g := range 5 {
		gid := fmt.Sprintf("other%d", g)
		msgs := make([]*bucket.MsgData, 250)
		for i := range msgs {
			msgs[i] = textMsg("dave", "", gid, bucket.SessionGroup, i+1, "not alice's")
			msgs[i].ClientMsgID = fmt.Sprintf("%s-c%d", gid, i+1)
		}
		if g == 4 {
			msgs[10].ClientMsgID = "elsewhere"
		}
		if _, err := st.InsertMessages(context.Background(), store.GroupChatID(gid), 1, msgs); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFindLooksInTheViewersConversationsFirst: from the open conversation,
// I finds a message of it in its own buckets only, where the scan of
// every conversation looks into the others' too; an ID only elsewhere is
// said to be outside alice's conversations, and a finds it there.
func TestFindLooksInTheViewersConversationsFirst(t *testing.T) {
	st, tb := newTestStore(t, false)
	seedSmall(t, st)
	seedOthers(t, st)
	sb := &searchedBuckets{testBackend: tb}
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, store.New(sb, store.Options{}), opts, 120, 40)
	d.open(chatAB)
	sb.take()
	d.keys("I")
	d.typeText("c110")
	d.keys("enter")
	if d.m.tl.ID() != chatAB || d.m.tl.Cursor() != 110 {
		t.Fatalf("I c110 did not land on %s seq 110: %s", chatAB, d.m.status)
	}
	scoped := sb.take()
	if scoped > 2 {
		t.Errorf("I c110 from %s looked into %d buckets, want its 2 (the others' 15 come before it in doc_id order)", chatAB, scoped)
	}
	d.keys("I")
	d.typeText("elsewhere")
	d.keys("enter")
	if want := "not in alice's conversations (a: search all): no message has client or server msg ID elsewhere"; d.m.status != want {
		t.Errorf("an ID outside alice's conversations: status %q, want %q", d.m.status, want)
	}
	if n := sb.take(); n > 2*(2+3) {
		t.Errorf("the miss in alice's conversations looked into %d buckets, want at most the open one's (2) and hers (3), for each of the two IDs", n)
	}
	d.keys("a")
	if !strings.Contains(d.m.status, "not a conversation of alice") || !strings.Contains(d.m.status, "sg_other4 seq 11") {
		t.Errorf("a after the miss: status %q, want it found in sg_other4 seq 11", d.m.status)
	}
	if n := sb.take(); n < 3*5 {
		t.Errorf("a looked into %d buckets, want every conversation's up to sg_other4 (15)", n)
	}
	d.keys("I")
	d.typeText("elsewhere")
	d.keys("enter", "j") // any other key drops the offer
	d.keys("a")
	if strings.Contains(d.m.status, "sg_other4") {
		t.Errorf("a searched everywhere after another key: %q", d.m.status)
	}
}

// TestGoldenFindPrompt: I's prompt names where it looks first and what a
// miss offers.
func TestGoldenFindPrompt(t *testing.T) {
	s := startScreen(t)
	s.open()
	s.keys("I")
	s.waitFor("find msg ID in alice's conversations (si_alice_bob first)")
	s.check()
}
