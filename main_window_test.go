package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/testkit"
)

// lastAudit is the last line of the sandbox's audit log.
func (s sandbox) lastAudit(t *testing.T) store.AuditEntry {
	t.Helper()
	entries := auditEntries(t, s)
	if len(entries) == 0 {
		t.Fatal("the audit log is empty")
	}
	return entries[len(entries)-1]
}

// storeDocs writes documents into the sandbox's store, as a deployment
// holding them would.
func (s sandbox) storeDocs(t *testing.T, coll string, docs ...any) {
	t.Helper()
	b := testkit.Open(t, s.data, embedded.Options{})
	defer b.Close(context.Background())
	testkit.Insert(t, b, coll, docs...)
}

// TestRevokeFollowsOpenIMPermissions: the scripted revoke refuses what
// open-im-server internal/rpc/msg/revoke.go RevokeMsg refuses — another
// user's message in a single chat, an ordinary member revoking the group
// owner's — with exit 1, one line naming the rule, an audit line "refused"
// and nothing written; --admin acts as an app admin: allowed, role 0,
// audited as admin.
func TestRevokeFollowsOpenIMPermissions(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	chat, group := demo.ShowcaseSingleID, demo.ShowcaseGroupID
	st := s.stored(t)
	bobs := plainSeq(t, st, chat, "bob", 0, false)
	members, err := st.Members(context.Background(), group)
	if err != nil {
		t.Fatal(err)
	}
	var owner, member string
	for _, m := range members {
		switch {
		case m.RoleLevel == bucket.RoleOwner && owner == "":
			owner = m.UserID
		case m.RoleLevel == bucket.RoleMember && member == "":
			member = m.UserID
		}
	}
	ownersMsg := plainSeq(t, st, group, owner, 0, false)
	_ = st.Close(context.Background())
	before := s.mustRun(t, "export")
	for _, c := range []struct {
		cid, by string
		seq     int64
		rule    string
	}{
		{chat, "alice", bobs, "alice may not revoke: in a single chat only the sender (bob) may revoke"},
		{group, member, ownersMsg, member + " may not revoke: an ordinary member may revoke only their own message"},
	} {
		r := s.chatlens(t, "revoke", "--conversation", c.cid, "--seq", fmt.Sprint(c.seq), "--by", c.by)
		if r.code != 1 || !strings.Contains(r.stderr, fmt.Sprintf("seq %d: %s", c.seq, c.rule)) || r.stdout != "" {
			t.Errorf("%s revoking seq %d of %s: exit %d, stderr %q; want 1 and %q", c.by, c.seq, c.cid, r.code, r.stderr, c.rule)
		}
		oneErrorLine(t, r.stderr)
		if e := s.lastAudit(t); e.Result != "refused" || e.As != c.by || e.Action != "revoke" {
			t.Errorf("audit after the refusal: %+v, want a refused revoke as %s", e, c.by)
		}
	}
	if after := s.mustRun(t, "export"); after != before {
		t.Error("a refused revoke changed the store")
	}
	out := s.mustRun(t, "revoke", "--conversation", chat, "--seq", fmt.Sprint(bobs), "--by", "alice", "--admin")
	if !strings.Contains(out, "as an app admin") {
		t.Errorf("admin revoke printed %q", out)
	}
	if e := s.lastAudit(t); e.Result != "ok" || !e.Admin {
		t.Errorf("audit after the admin revoke: %+v, want ok and admin", e)
	}
	rev := slotsOf(t, s.stored(t), chat, bobs)[bobs].Slot.Revoke
	if rev == nil || rev.UserID != "alice" || rev.Role != 0 || rev.Nickname != "Alice Chen" {
		t.Errorf("admin revoke stored %+v, want alice, role 0, her user.nickname", rev)
	}
}

// TestPullWindowInTheCommands: alice cleared her history of the single chat
// up to seq 20 (seq_user.min_seq 21) and her conversation document says
// min_seq 50, which OpenIM's pull never reads (controller/msg.go
// GetMsgBySeqsRange). dump starts at 21 whatever --from says, unread counts
// nothing before 21, and a revoke of seq 5 is "msg not found".
func TestPullWindowInTheCommands(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	chat := demo.ShowcaseSingleID
	s.storeDocs(t, bucket.CollSeqUser, bson.D{{Key: "user_id", Value: "alice"}, {Key: "conversation_id", Value: chat},
		{Key: "min_seq", Value: int64(21)}, {Key: "max_seq", Value: int64(0)}, {Key: "read_seq", Value: int64(3)}})
	s.storeDocs(t, bucket.CollConversation, bson.D{{Key: "owner_user_id", Value: "alice"}, {Key: "conversation_id", Value: chat},
		{Key: "conversation_type", Value: int32(1)}, {Key: "user_id", Value: "bob"}, {Key: "min_seq", Value: int64(50)}})
	for _, from := range []string{"1", "10"} {
		objs := s.dumpJSON(t, chat, "alice", "--from", from)
		if len(objs) == 0 || num(objs[0]["seq"]) != 21 {
			t.Errorf("dump --from %s as alice starts at %v, want 21", from, objs[0]["seq"])
		}
	}
	if r := s.chatlens(t, "dump", "--conversation", chat, "--as", "alice", "--from", "5", "--to", "22"); r.code != 0 ||
		!strings.Contains(r.stderr, "alice's history starts at seq 21: seq_user.min_seq = 21") {
		t.Errorf("dump --from 5 as alice: exit %d, stderr %q; want a note saying why seqs 5-20 are missing", r.code, r.stderr)
	}
	var row struct{ MaxSeq, ReadSeq, Unread int64 }
	for line := range strings.Lines(s.mustRun(t, "conversations", "--as", "alice", "--format", "json")) {
		if strings.Contains(line, `"conversationID":"`+chat+`"`) {
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The unread count is the app's: max seq - read seq, whatever the
	// window's start (openim-sdk-core internal/conversation_msg/sync.go).
	if want := row.MaxSeq - 3; row.Unread != want {
		t.Errorf("unread %d with read seq %d, want %d, as alice's app counts it", row.Unread, row.ReadSeq, want)
	}
	r := s.chatlens(t, "revoke", "--conversation", chat, "--seq", "5", "--by", "alice")
	if r.code != 1 || !strings.Contains(r.stderr, "seq 5: msg not found") {
		t.Errorf("revoke below alice's window: exit %d, %q; want msg not found", r.code, r.stderr)
	}
}

// TestUnknownUsers: a user ID no stored document names is "no such user"
// (one line, the ID's escapes shown as text, exit 1) for writes (audited as
// refused) and reads alike; a user the store knows who is not a member of
// a private chat is told why they are shown nothing.
func TestUnknownUsers(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	chat := demo.ShowcaseSingleID
	for _, by := range []string{"nobody", "ali\x1b[31mce\nINJECT"} {
		r := s.chatlens(t, "delete", "--conversation", chat, "--seq", "1", "--by", by)
		if r.code != 1 || !strings.Contains(r.stderr, "no such user") || strings.Contains(r.stderr, "\x1b") {
			t.Errorf("delete by %q: exit %d, %q; want 1 and an unknown-user refusal without the raw escape", by, r.code, r.stderr)
		}
		oneErrorLine(t, r.stderr)
		if e := s.lastAudit(t); e.Result != "refused" {
			t.Errorf("audit after the refusal by %q: %+v", by, e)
		}
	}
	r := s.chatlens(t, "conversations", "--as", "nobody")
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, `no such user "nobody"`) {
		t.Errorf("conversations --as nobody: exit %d, stdout %q, stderr %q; want no such user", r.code, r.stdout, r.stderr)
	}
	r = s.chatlens(t, "dump", "--conversation", chat, "--as", "nobody", "--to", "2")
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, `no such user "nobody"`) {
		t.Errorf("dump --as nobody: exit %d, stdout %q, stderr %q; want no such user", r.code, r.stdout, r.stderr)
	}
	r = s.chatlens(t, "dump", "--conversation", chat, "--as", "wangfang", "--to", "2")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, `"wangfang" has no conversation document for `+chat) {
		t.Errorf("dump --as wangfang: exit %d, stdout %q, stderr %q; want nothing shown, and why", r.code, r.stdout, r.stderr)
	}
	r = s.chatlens(t, "dump", "--conversation", chat, "--as", "alice", "--to", "2")
	if r.stderr != "" {
		t.Errorf("dump as alice warned: %q", r.stderr)
	}
}

// TestMongoWritesNoteTheMissingNotification: after a revoke, delete or
// mark read OpenIM sends a notification message (2101, 2102, 2200;
// internal/rpc/msg/revoke.go, delete.go, as_read.go) that synced devices
// act on. chatlens writes the storage only, and on a MongoDB deployment
// each command says so on stderr; the embedded store (no devices) does not.
func TestMongoWritesNoteTheMissingNotification(t *testing.T) {
	t.Parallel()
	uri, _ := mongotest.URI(t)
	db := mongotest.Database(t, uri)
	audit := filepath.Join(t.TempDir(), "audit.log")
	mongo := func(args ...string) result {
		full := append([]string{args[0], "--mongo-uri", uri, "--db", db, "--audit-log", audit}, args[1:]...)
		var out, errs bytes.Buffer
		return result{runArgs(full, &out, &errs), out.String(), errs.String()}
	}
	if r := mongo("seed", "--conversations", "1", "--messages", "20", "--long", "0", "--seed", "2"); r.code != 0 {
		t.Fatalf("seed: exit %d: %s", r.code, r.stderr)
	}
	for _, c := range []struct{ cmd, by, want string }{
		{"revoke", "bob", "no revoke notification (2101)"},
		{"delete", "alice", "no delete notification (2102)"},
		{"read", "alice", "no read receipt (2200)"},
	} {
		r := mongo(c.cmd, "--conversation", demo.ShowcaseSingleID, "--seq", "2", "--by", c.by)
		if r.code != 0 || !strings.Contains(r.stderr, "chatlens: note: chatlens sends "+c.want) {
			t.Errorf("%s on MongoDB: exit %d, stderr %q; want a note naming %q", c.cmd, r.code, r.stderr, c.want)
		}
	}
	s := seeded(t)
	if r := s.chatlens(t, "delete", "--conversation", demo.ShowcaseSingleID, "--seq", "2", "--by", "alice"); r.code != 0 || r.stderr != "" {
		t.Errorf("delete on the embedded store: exit %d, stderr %q; want no note", r.code, r.stderr)
	}
}
