package store_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// msgWatch records what is read of the msg collection beyond the doc_id
// index: a scan, or the walk over every conversation's buckets.
// It serves store.RawDocs's ScanRaw and store.BucketReader's
// NextConversationID; every other call goes to the Backend it wraps.
type msgWatch struct {
	store.Backend
	scans []string
}

func (w *msgWatch) ScanRaw(ctx context.Context, coll, prefix string, fn func(bson.Raw) error) error {
	w.scans = append(w.scans, coll)
	return w.Backend.ScanRaw(ctx, coll, prefix, fn)
}

func (w *msgWatch) NextConversationID(ctx context.Context, after string) (string, bool, error) {
	w.scans = append(w.scans, "msg walk")
	return w.Backend.NextConversationID(ctx, after)
}

// typoStore holds alice, bob and wangfang's chats, each user named by one
// kind of document only where it matters: mina only by group_member, ken
// only by seq_user, sg_quiet only by a seq_user document, si_alice_old only
// by its buckets.
func typoStore(t *testing.T) (*store.Store, *msgWatch) {
	t.Helper()
	b := testkit.TempBackend(t)
	w := &msgWatch{Backend: b}
	s := store.New(w, store.Options{IMAdmins: []string{"imAdmin"}})
	ctx := t.Context()
	for _, cid := range []string{"si_alice_bob", "si_alice_wangfang", "sg_phoenix"} {
		if _, err := s.InsertMessages(ctx, cid, 1, textMsgs(2)); err != nil {
			t.Fatal(err)
		}
	}
	testkit.Insert(t, b, bucket.CollMsg, bucket.NewDoc(bucket.DocID("si_alice_old", 0)))
	testkit.Insert(t, b, bucket.CollUser, bucket.User{UserID: "alice"}, bucket.User{UserID: "bob"}, bucket.User{UserID: "wangfang"})
	testkit.Insert(t, b, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "alice", ConversationID: "si_alice_bob", ConversationType: 1},
		bucket.Conversation{OwnerUserID: "bob", ConversationID: "si_alice_bob", ConversationType: 1})
	testkit.Insert(t, b, bucket.CollGroupMember, bucket.GroupMember{GroupID: "phoenix", UserID: "mina"})
	testkit.Insert(t, b, bucket.CollSeqUser, bucket.SeqUser{UserID: "ken", ConversationID: "sg_quiet", ReadSeq: 1})
	w.scans = nil
	return s, w
}

// TestTyposInIDsNameTheNearest: a conversation or user ID no stored
// document names is "no such conversation / user" with the nearest stored
// names; an ID any kind of document names passes; the msg collection is
// never scanned for either.
func TestTyposInIDsNameTheNearest(t *testing.T) {
	s, w := typoStore(t)
	ctx := t.Context()
	for _, c := range []struct {
		cid, uid string
		want     string // "" passes
	}{
		{"si_alice_bbo", "", `no such conversation si_alice_bbo: no seq, conversation, seq_user or msg document names it (did you mean si_alice_bob?)`},
		{"", "bbo", `no such user "bbo": no user, conversation, seq_user or group_member document names them (did you mean "bob"?)`},
		{"si_alice_bbo", "bbo", `no such conversation si_alice_bbo: no seq, conversation, seq_user or msg document names it (did you mean si_alice_bob?); no such user "bbo"`},
		{"zzzzzzzzzz", "", `no such conversation zzzzzzzzzz: no seq, conversation, seq_user or msg document names it`},
		{"si_alice", "", `(did you mean si_alice_bob or si_alice_wangfang?)`},
		{"si_alice_bob", "bob", ""},
		{"sg_phoenix", "mina", ""},      // a group member with no user document
		{"sg_quiet", "ken", ""},         // named by one seq_user document only
		{"si_alice_old", "", ""},        // buckets without a seq document
		{"si_alice_bob", "imAdmin", ""}, // the deployment's app admin
	} {
		err := s.CheckIDs(ctx, c.cid, c.uid)
		var ns store.NoSuchError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q, %q: %v; want it to pass", c.cid, c.uid, err)
		case c.want != "" && (!errors.As(err, &ns) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q, %q: %v; want %s", c.cid, c.uid, err, c.want)
		}
	}
	if slices.Contains(w.scans, bucket.CollMsg) || slices.Contains(w.scans, "msg walk") {
		t.Errorf("the msg collection was scanned: %v", w.scans)
	}
	// A known ID is read by key: one round trip each.
	before := s.Stats().RoundTrips
	w.scans = nil
	if err := s.CheckIDs(ctx, "si_alice_bob", "alice"); err != nil || s.Stats().RoundTrips-before != 2 || len(w.scans) > 0 {
		t.Errorf("checking two known IDs: %v, %d round trips, scans %v; want 2 round trips, no scan", err, s.Stats().RoundTrips-before, w.scans)
	}
}

// TestBareMessagesCannotTellUsers: with no user, conversation, seq_user or
// group_member document, nothing says who the users are: every user ID
// passes; a conversation is still told by its buckets.
func TestBareMessagesCannotTellUsers(t *testing.T) {
	s, _ := testkit.TempStore(t, store.Options{})
	if _, err := s.InsertMessages(t.Context(), "si_alice_bob", 1, textMsgs(2)); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckIDs(t.Context(), "si_alice_bob", "anyone"); err != nil {
		t.Errorf("a bare msg store: %v", err)
	}
	var ns store.NoSuchError
	if err := s.CheckIDs(t.Context(), "si_alice_bbo", ""); !errors.As(err, &ns) {
		t.Errorf("a conversation with no bucket: %v", err)
	}
}

// TestWriteByAnUnknownUserSaysNoSuchUser: a storage-level write by an ID no
// stored document names is refused as a typo, with the nearest names, and
// audited as refused; a user the store knows who is not a member is
// refused as before.
func TestWriteByAnUnknownUserSaysNoSuchUser(t *testing.T) {
	s, _ := typoStore(t)
	var log bytes.Buffer
	b := s.Backend()
	s = store.New(b, store.Options{Audit: store.NewAuditLog(&log)})
	_, err := s.Do(t.Context(), store.WriteRequest{Action: store.ActionDelete, Cid: "si_alice_bob", By: "bbo", Seqs: []int64{1}})
	var ns store.NoSuchError
	if !errors.As(err, &ns) || !strings.Contains(err.Error(), `did you mean "bob"?`) {
		t.Errorf("a write by bbo: %v; want no such user, did you mean bob", err)
	}
	_, err = s.Do(t.Context(), store.WriteRequest{Action: store.ActionDelete, Cid: "si_alice_bob", By: "mina", Seqs: []int64{1}})
	var ue *store.UnknownUserError
	if !errors.As(err, &ue) {
		t.Errorf("a write by mina (a member of another group, no user document): %v; want today's refusal", err)
	}
	entries := testkit.AuditEntries(t, log.Bytes())
	if len(entries) != 2 || entries[0].Result != store.ResultRefused || !strings.Contains(entries[0].Error, "no such user") {
		t.Errorf("audit log %+v: want two refusals, the first of no such user", entries)
	}
}
