package store_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestDoRevokeRecordsWhatOpenIMRecords: the revoke record carries the
// revoker's user.nickname only (empty when empty, never the group
// nickname), the group role_level in a group and user.app_manger_level in
// a single chat (revoke.go RevokeMsg); --admin records role 0 and is
// audited as such; a refusal names the rule, writes nothing and is audited
// "refused".
func TestDoRevokeRecordsWhatOpenIMRecords(t *testing.T) {
	b := testkit.TempBackend(t)
	var log bytes.Buffer
	s := store.New(b, store.Options{Audit: store.NewAuditLog(&log), Operator: "ops"})
	ctx := t.Context()
	from := func(uid string, kind int32, n int) []*bucket.MsgData {
		msgs := textMsgs(n)
		for _, m := range msgs {
			m.SendID, m.SessionType, m.GroupID = uid, kind, ""
			if kind == bucket.SessionGroup {
				m.GroupID = "club"
			}
		}
		return msgs
	}
	mustInsert := func(_ store.WriteResult, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mustDo := func(_ store.Done, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mustInsert(s.InsertMessages(ctx, "sg_club", 1, from("mo", bucket.SessionGroup, 3)))
	mustInsert(s.InsertMessages(ctx, "si_alice_bob", 1, from("bob", bucket.SessionSingle, 2)))
	testkit.Insert(t, b, bucket.CollUser,
		bsonD("user_id", "olga", "nickname", ""), bsonD("user_id", "mo", "nickname", "Mo"),
		bsonD("user_id", "bob", "nickname", "Bob", "app_manger_level", int32(3)), bsonD("user_id", "alice", "nickname", "Alice"))
	testkit.Insert(t, b, bucket.CollGroupMember,
		bsonD("group_id", "club", "user_id", "olga", "nickname", "Boss", "role_level", bucket.RoleOwner),
		bsonD("group_id", "club", "user_id", "mo", "nickname", "Mo", "role_level", bucket.RoleMember))

	mustDo(s.Do(ctx, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_club", By: "olga", Seqs: []int64{1}}))
	mustDo(s.Do(ctx, store.WriteRequest{Action: store.ActionRevoke, Cid: "si_alice_bob", By: "bob", Seqs: []int64{1}}))
	mustDo(s.Do(ctx, store.WriteRequest{Action: store.ActionRevoke, Cid: "sg_club", By: "alice", Seqs: []int64{2}, Admin: true}))
	_, err := s.Do(ctx, store.WriteRequest{Action: store.ActionRevoke, Cid: "si_alice_bob", By: "alice", Seqs: []int64{2}})
	var te *store.TargetError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "only the sender (bob)") || strings.Contains(err.Error(), "\n") {
		t.Errorf("alice revoking bob's message in their single chat: %v; want a one-line refusal naming the rule", err)
	}

	club := slotsOf(t, s, "sg_club", 3)
	chat := slotsOf(t, s, "si_alice_bob", 2)
	for _, c := range []struct {
		where string
		got   *bucket.Revoke
		want  bucket.Revoke
	}{
		{"owner in a group", club[1].Slot.Revoke, bucket.Revoke{UserID: "olga", Role: bucket.RoleOwner, Nickname: ""}},
		{"sender in a single chat", chat[1].Slot.Revoke, bucket.Revoke{UserID: "bob", Role: 3, Nickname: "Bob"}},
		{"app admin", club[2].Slot.Revoke, bucket.Revoke{UserID: "alice", Role: 0, Nickname: "Alice"}},
	} {
		if c.got == nil || c.got.UserID != c.want.UserID || c.got.Role != c.want.Role || c.got.Nickname != c.want.Nickname {
			t.Errorf("%s: revoke record %+v, want user %s role %d nickname %q", c.where, c.got, c.want.UserID, c.want.Role, c.want.Nickname)
		}
	}
	if chat[2].Slot.Revoke != nil {
		t.Error("a refused revoke was written")
	}
	lines := testkit.AuditEntries(t, log.Bytes())
	if n := len(lines); n < 2 || !lines[n-2].Admin || lines[n-1].Result != "refused" || lines[n-1].As != "alice" {
		t.Errorf("audit log %+v: want the admin revoke marked admin, then alice's refusal", lines)
	}
}

// TestDoRefusesUnknownWriters: a write by a user the store does not know
// is refused, one line with the ID quoted (escapes shown, never sent), and
// audited; with no user collection, membership decides.
func TestDoRefusesUnknownWriters(t *testing.T) {
	b := testkit.TempBackend(t)
	var log bytes.Buffer
	s := store.New(b, store.Options{Audit: store.NewAuditLog(&log)})
	if _, err := s.InsertMessages(t.Context(), "si_alice_bob", 1, textMsgs(3)); err != nil {
		t.Fatal(err)
	}
	// No user collection: the single chat's ID names its users.
	if _, err := s.Do(t.Context(), store.WriteRequest{Action: store.ActionDelete, Cid: "si_alice_bob", By: "alice", Seqs: []int64{1}}); err != nil {
		t.Errorf("alice, named by the conversation ID: %v", err)
	}
	testkit.Insert(t, b, bucket.CollUser, bsonD("user_id", "alice", "nickname", "Alice"))
	for _, by := range []string{"nobody", "ali\x1b[31mce\nINJECT"} {
		_, err := s.Do(t.Context(), store.WriteRequest{Action: store.ActionRead, Cid: "si_alice_bob", By: by, Seqs: []int64{2}})
		var ns store.NoSuchError // no stored document names them
		if !errors.As(err, &ns) || strings.ContainsAny(err.Error(), "\x1b\n") || !strings.Contains(err.Error(), "no such user") {
			t.Errorf("write by %q: %v; want a one-line refusal of an unknown user", by, err)
		}
	}
	var outcomes []store.AuditEntry // each write's intent line is left out
	for _, l := range testkit.AuditEntries(t, log.Bytes()) {
		if l.Result != store.ResultIntent {
			outcomes = append(outcomes, l)
		}
	}
	if len(outcomes) != 4 || outcomes[2].Result != "refused" || outcomes[3].Result != "refused" {
		t.Errorf("audit log %+v: want the insert, the delete, then two refusals", outcomes)
	}
}

// bsonD builds a document from key, value pairs.
func bsonD(kv ...any) bson.D {
	d := bson.D{}
	for i := 0; i+1 < len(kv); i += 2 {
		d = append(d, bson.E{Key: kv[i].(string), Value: kv[i+1]})
	}
	return d
}

// slotsOf is the stored slots of the first bucket of cid, by seq, up to maxSeq.
func slotsOf(t *testing.T, s *store.Store, cid string, maxSeq int64) map[int64]bucket.StoredSlot {
	t.Helper()
	bs, err := s.Buckets(t.Context(), cid, []int64{0}, maxSeq)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]bucket.StoredSlot{}
	for _, st := range bs[0].Slots {
		out[st.Seq] = st
	}
	return out
}

// TestDeleteOrReadOfACacheOnlySeqSaysSo: Redis holds new messages before
// MongoDB does (controller/msg.go reads MSG_CACHE first). A delete-for-me
// or a single-chat mark read of such a seq would match no stored message
// ($addToSet / filtered $set on a bucket that is not there): refused,
// saying why, instead of reporting ok.
func TestDeleteOrReadOfACacheOnlySeqSaysSo(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "si_alice_bob", 10, store.Options{Cache: cache})
	testkit.Insert(t, s.Backend(), bucket.CollUser, bsonD("user_id", "bob", "nickname", "Bob"))
	cache.max["si_alice_bob"] = 11
	cache.slots[11] = &bucket.Slot{Msg: &bucket.MsgData{SendID: "alice", SessionType: bucket.SessionSingle, Seq: 11,
		ContentType: 101, Content: `{"content":"new"}`, SendTime: 1700000001000}}
	for _, action := range []string{store.ActionDelete, store.ActionRead} {
		_, err := s.Do(t.Context(), store.WriteRequest{Action: action, Cid: "si_alice_bob", By: "bob", Seqs: []int64{11}})
		if err == nil || !strings.Contains(err.Error(), "seq 11: only in the Redis cache") {
			t.Errorf("%s of seq 11, held only by the cache: %v; want a refusal saying so", action, err)
		}
	}
	if _, err := s.Do(t.Context(), store.WriteRequest{Action: store.ActionDelete, Cid: "si_alice_bob", By: "bob", Seqs: []int64{10}}); err != nil {
		t.Errorf("delete of stored seq 10: %v", err)
	}
}

// TestRevokeOfARevokeNoticeIsRefused: revoke.go RevokeMsg refuses a message
// whose content type is 2101 ("msg already revoke"), not only one with a
// revoke record: a stored revoke notice cannot be revoked.
func TestRevokeOfARevokeNoticeIsRefused(t *testing.T) {
	b := testkit.TempBackend(t)
	s := store.New(b, store.Options{})
	msgs := textMsgs(2)
	for _, m := range msgs {
		m.SessionType, m.RecvID = bucket.SessionSingle, "bob"
	}
	msgs[1].ContentType = bucket.ContentRevoked
	if _, err := s.InsertMessages(t.Context(), "si_alice_bob", 1, msgs); err != nil {
		t.Fatal(err)
	}
	_, err := s.Do(t.Context(), store.WriteRequest{Action: store.ActionRevoke, Cid: "si_alice_bob", By: "alice", Seqs: []int64{1, 2}})
	if err == nil || !strings.Contains(err.Error(), "seq 2: msg already revoke") || strings.Contains(err.Error(), "seq 1") {
		t.Errorf("revoke of seqs 1 (a text) and 2 (a revoke notice): %v; want seq 2 refused as already revoked", err)
	}
}
