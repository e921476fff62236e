package ui

import (
	"context"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
)

// TestFirstScreenOfALongConversation: opening a long conversation from the
// list costs at most 2 store round trips until its first screen is drawn,
// on the embedded store (100,000 messages) and on a MongoDB-wire server
// (the in-process FerretDB, 1,000 messages: it scans on every read, and the
// count follows from buckets, not from their number); switching viewer
// then reads no bucket and no slot.
func TestFirstScreenOfALongConversation(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes 1,000 buckets")
	}
	const cid = "sg_long"
	backends := []struct {
		name     string
		messages int
		open     func(t *testing.T) *testBackend
	}{
		{"embedded", 100_000, func(t *testing.T) *testBackend { _, tb := newTestStore(t, false); return tb }},
		{"ferretdb", 1_000, func(t *testing.T) *testBackend {
			uri := mongotest.Start(t).URI()
			b, err := mongostore.Open(t.Context(), uri, mongotest.Database(t, uri), mongostore.Options{Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = b.Close(context.Background()) })
			return newTestBackend(b)
		}},
	}
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			if raceDetector && be.messages > 20_000 {
				be.messages = 20_000
			}
			tb := be.open(t)
			st := store.New(tb, store.Options{})
			writeLongConversation(t, st, cid, be.messages)
			insertRaw(t, st, bucket.CollConversation,
				bucket.Conversation{OwnerUserID: "bob", ConversationID: cid, ConversationType: 3, GroupID: "long"})
			insertRaw(t, st, bucket.CollGroupMember,
				bucket.GroupMember{GroupID: "long", UserID: "alice", Nickname: "Alice", RoleLevel: bucket.RoleOwner},
				bucket.GroupMember{GroupID: "long", UserID: "bob", Nickname: "Bob", RoleLevel: bucket.RoleMember})
			opts, _ := testOptions(t, "alice")
			d := newDriver(t, st, opts, 120, 40)
			tb.ResetReads()
			before := st.Stats().RoundTrips
			d.open(cid)
			got := st.Stats().RoundTrips - before
			reads := tb.ResetReads()
			t.Logf("%s, %d messages: %d round trips to the first screen, buckets read %v", be.name, be.messages, got, reads)
			if got > 2 {
				t.Errorf("opening %d messages took %d round trips before the first screen, want at most 2", be.messages, got)
			}
			screen := seqsOnScreen(d.m.View())
			if len(screen) < 30 || screen[len(screen)-1] != int64(be.messages) {
				t.Fatalf("first screen shows seqs %v, want a full screen ending at %d", screen, be.messages)
			}
			tb.ResetReads()
			d.keys("V") // the first V reads the members, who are only alice until then
			if d.m.tl.Viewer() != "bob" {
				d.keys("V")
			}
			if d.m.tl.Viewer() != "bob" {
				t.Fatalf("V switched to %q, want bob", d.m.tl.Viewer())
			}
			// The new viewer's conversation list is loaded (its unread
			// counts and previews are bob's): that reads each of his
			// conversations' newest bucket once. The timeline's buckets are
			// not read again.
			newest := bucket.DocIDForSeq(cid, int64(be.messages))
			for id, n := range tb.ResetReads() {
				if id != newest || n > 1 {
					t.Errorf("switching viewer read %s %d times; want only bob's list preview %s, once", id, n, newest)
				}
			}
		})
	}
}
