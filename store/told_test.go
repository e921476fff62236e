package store_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/recordingtest"
)

// toldWords are the inspector's lines of cid's seq as viewer sees them.
func toldWords(t *testing.T, st *store.Store, viewer, cid string, seq int64) []string {
	t.Helper()
	slots, err := st.Slots(t.Context(), cid, []int64{seq}, bucket.MaxSeq)
	if err != nil {
		t.Fatal(err)
	}
	told, err := st.Told(t.Context(), viewer, cid, slots[seq])
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range told {
		out = append(out, tl.Words(viewer))
	}
	return out
}

// TestToldLinksAWriteToItsNotification: the recorded server's revokes,
// deletes for me and read marks each have a notification (shared/
// openim-recorded pull_*.json: n_g1, n_u1_u2, n_u2_u2); the inspector
// names it and whether the viewer's pull holds it. u1's delete of sg_g1
// seq 199 was sent without IsSyncSelf (api-calls.jsonl), so the server
// told no one; a storage-level revoke tells no one either.
func TestToldLinksAWriteToItsNotification(t *testing.T) {
	st := recordingtest.Store(t)
	for _, c := range []struct {
		viewer, cid string
		seq         int64
		want        []string
	}{
		{"u3", "sg_g1", 199, []string{"revoke: told by n_g1 seq 16, pulled by u3: yes",
			"delete for u1: no notification found in n_u1_u1 (it holds none)"}},
		{"u3", "sg_g1", 27, []string{"revoke: told by n_g1 seq 8, pulled by u3: yes", "read: told by n_g1 seq 10, pulled by u3: yes"}},
		{"u1", "si_u1_u2", 9, []string{"delete for u2: told by n_u2_u2 seq 1, pulled by u1: no", "read: told by n_u1_u2 seq 5, pulled by u1: yes"}},
		{"u2", "si_u1_u2", 4, []string{"delete for u2: told by n_u2_u2 seq 1, pulled by u2: yes", "read: told by n_u1_u2 seq 4, pulled by u2: yes"}},
		{"u3", "sg_g1", 50, nil},
	} {
		if got := toldWords(t, st, c.viewer, c.cid, c.seq); !slices.Equal(got, c.want) {
			t.Errorf("%s %s seq %d:\n got %q\nwant %q", c.viewer, c.cid, c.seq, got, c.want)
		}
	}
	if _, err := st.Revoke(t.Context(), "sg_g1", []int64{50}, bucket.Revoke{UserID: "u1", Role: bucket.RoleOwner}); err != nil {
		t.Fatal(err)
	}
	if got := toldWords(t, st, "u3", "sg_g1", 50); !slices.Equal(got, []string{"revoke: no notification found in n_g1 (seq 1-16 read)"}) {
		t.Errorf("a storage-level revoke: %q", got)
	}
}

// TestToldReadsANotificationConversationOnce: what was read of n_g1 is
// kept; a second look reads no bucket of it, and a notification that
// arrives later is read, alone.
func TestToldReadsANotificationConversationOnce(t *testing.T) {
	st := recordingtest.Store(t)
	cost := func(seq int64) (int64, []string) {
		before := st.Stats().RoundTrips
		words := toldWords(t, st, "u3", "sg_g1", seq)
		return st.Stats().RoundTrips - before, words
	}
	first, _ := cost(27)
	again, words := cost(27)
	if again != first-1 || len(words) != 2 {
		t.Errorf("looked again: %d round trips, the first look %d; want one fewer (no bucket of n_g1 read): %q", again, first, words)
	}
	tip := `{"detail":"{\"revokerUserID\":\"u1\",\"seq\":60,\"conversationID\":\"sg_g1\"}"}`
	if _, err := st.InsertMessages(t.Context(), "n_g1", 17, []*bucket.MsgData{{SendID: "u1", GroupID: "g1", SessionType: bucket.SessionGroup,
		MsgFrom: 200, ContentType: bucket.ContentRevoked, Content: tip, SendTime: 1796133236000}}); err != nil {
		t.Fatal(err)
	}
	// Revoked a second before its notification was sent.
	if _, err := st.Revoke(t.Context(), "sg_g1", []int64{60}, bucket.Revoke{UserID: "u1", Role: bucket.RoleOwner, Time: 1796133235000}); err != nil {
		t.Fatal(err)
	}
	later, words := cost(60)
	if later != first || !strings.HasPrefix(strings.Join(words, ";"), "revoke: told by n_g1 seq 17, pulled by u3: yes") {
		t.Errorf("a notification stored later: %d round trips (the first look %d), %q", later, first, words)
	}
}

// TestToldMatchesTheNotificationsOwnRecord: a 2101 for the same seq that
// names another revoker, or was sent before the revoke record's time (an
// older revoke, imported), tells nothing of this revoke; the one that names
// the revoker and came after it does. A 2102 or 2200 must name the user
// and list the seq.
func TestToldMatchesTheNotificationsOwnRecord(t *testing.T) {
	st := recordingtest.Store(t)
	const at = int64(1796133236000)
	const twoYears = int64(2 * 365 * 24 * 3600 * 1000)
	tip := func(revoker string, seq int64) string {
		return fmt.Sprintf(`{"detail":"{\"revokerUserID\":\"%s\",\"seq\":%d,\"conversationID\":\"sg_g1\"}"}`, revoker, seq)
	}
	notify := func(nseq int64, content string, sent int64) {
		t.Helper()
		if _, err := st.InsertMessages(t.Context(), "n_g1", nseq, []*bucket.MsgData{{SendID: "u1", GroupID: "g1", SessionType: bucket.SessionGroup,
			MsgFrom: 200, ContentType: bucket.ContentRevoked, Content: content, SendTime: sent}}); err != nil {
			t.Fatal(err)
		}
	}
	notify(17, tip("u2", 50), at-twoYears) // another revoker, two years before
	notify(18, tip("u1", 50), at-twoYears) // this revoker, before the record
	if _, err := st.Revoke(t.Context(), "sg_g1", []int64{50}, bucket.Revoke{UserID: "u1", Role: bucket.RoleOwner, Time: at}); err != nil {
		t.Fatal(err)
	}
	if got := toldWords(t, st, "u3", "sg_g1", 50); !slices.Equal(got, []string{"revoke: no notification found in n_g1 (seq 1-18 read)"}) {
		t.Errorf("a storage-level revoke after older notifications of the seq: %q", got)
	}
	notify(19, tip("u1", 50), at+20)
	if got := toldWords(t, st, "u3", "sg_g1", 50); !slices.Equal(got, []string{"revoke: told by n_g1 seq 19, pulled by u3: yes"}) {
		t.Errorf("the revoke's own notification: %q", got)
	}
}

// TestToldReadsNoFurtherBackThanTheMessage: no notification sent before
// a message is about it, so looking for one that is not there (a
// storage-level revoke) stops at the first bucket of the notification
// conversation that reaches back past the message's send time.
func TestToldReadsNoFurtherBackThanTheMessage(t *testing.T) {
	st := recordingtest.Store(t)
	slots, err := st.Slots(t.Context(), "sg_g1", []int64{50}, bucket.MaxSeq)
	if err != nil {
		t.Fatal(err)
	}
	sent := slots[50].Slot.Msg.SendTime
	var older []*bucket.MsgData // n_g1 seq 17-250: read marks of other messages, sent before seq 50
	for seq := int64(17); seq <= 250; seq++ {
		older = append(older, &bucket.MsgData{SendID: "u1", GroupID: "g1", SessionType: bucket.SessionGroup, MsgFrom: 200,
			ContentType: bucket.ContentReadReceipt, SendTime: sent - 1000*(251-seq),
			Content: `{"detail":"{\"conversationID\":\"sg_g1\",\"markAsReadUserID\":\"u2\",\"seqs\":[3]}"}`})
	}
	if _, err := st.InsertMessages(t.Context(), "n_g1", 17, older); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Revoke(t.Context(), "sg_g1", []int64{50}, bucket.Revoke{UserID: "u1", Role: bucket.RoleOwner, Time: sent + 1000}); err != nil {
		t.Fatal(err)
	}
	if got := toldWords(t, st, "u3", "sg_g1", 50); !slices.Equal(got, []string{"revoke: no notification found in n_g1 (seq 201-250 read)"}) {
		t.Errorf("a storage-level revoke after 250 older notifications: %q; want only the newest bucket read", got)
	}
}

// TestToldAndHistoryReadANotificationConversationOnce: the inspector asks
// for "told by" and for the life of a message at once; what one read of
// n_g1 the other takes from what was kept, so the pair costs one round
// trip less than each alone (n_g1 holds one bucket) whichever lands first.
func TestToldAndHistoryReadANotificationConversationOnce(t *testing.T) {
	told := func(st *store.Store) { toldWords(t, st, "u3", "sg_g1", 27) }
	history := func(st *store.Store) {
		if _, err := st.History(t.Context(), "u3", "sg_g1", ""); err != nil {
			t.Fatal(err)
		}
	}
	cost := func(looks ...func(*store.Store)) int64 {
		st := recordingtest.Store(t)
		for _, look := range looks {
			look(st)
		}
		return st.Stats().RoundTrips
	}
	alone := cost(told) + cost(history)
	for name, pair := range map[string][]func(*store.Store){"told first": {told, history}, "history first": {history, told}} {
		if got := cost(pair...); got != alone-1 {
			t.Errorf("%s: %d round trips; each alone: %d in all; want one fewer (n_g1's bucket read once)", name, got, alone)
		}
	}
}
