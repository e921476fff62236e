package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// importDocs writes docs as mongoexport lines (relaxed Extended JSON)
// and imports them with `chatlens import`.
func (s sandbox) importDocs(t *testing.T, coll string, docs ...any) {
	t.Helper()
	var lines []string
	for _, d := range docs {
		b, err := bson.MarshalExtJSON(d, false, false)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	path := filepath.Join(t.TempDir(), coll+".json")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s.mustRun(t, "import", "--collection", coll, path)
}

// clearedGroup is the reproduction as OpenIM leaves it: dpa and dpb
// in group dg1, its creation tip and 10 messages, dpb cleared the
// conversation (seq_user.min_seq 12), then a second seq_user document of
// dpb in sg_dg1 with min_seq 0 was stored after the first (OpenIM's index
// on the pair is not unique: pkg/common/storage/database/mgo/seq_user.go).
func clearedGroup(t *testing.T) sandbox {
	t.Helper()
	s := empty(t)
	doc := bucket.NewDoc("sg_dg1:0")
	for i := range 11 {
		doc.Msgs[i].Msg = &bucket.MsgData{SendID: "dpa", GroupID: "dg1", SessionType: bucket.SessionGroup, ContentType: 101,
			Content: `{"content":"m"}`, Seq: int64(i + 1), SendTime: 1700000000000 + int64(i), MsgFrom: 100, Status: 2,
			ClientMsgID: "c" + string(rune('a'+i)), ServerMsgID: "s" + string(rune('a'+i))}
	}
	s.importDocs(t, "msg", doc)
	s.importDocs(t, "seq", bucket.SeqRecord{ConversationID: "sg_dg1", MaxSeq: 11})
	s.importDocs(t, "user", bucket.User{UserID: "dpa", Nickname: "A"}, bucket.User{UserID: "dpb", Nickname: "B"})
	s.importDocs(t, "group", bucket.Group{GroupID: "dg1", GroupName: "dg"})
	s.importDocs(t, "group_member", bucket.GroupMember{GroupID: "dg1", UserID: "dpa", RoleLevel: 100},
		bucket.GroupMember{GroupID: "dg1", UserID: "dpb", RoleLevel: 20})
	s.importDocs(t, "conversation",
		bucket.Conversation{OwnerUserID: "dpa", ConversationID: "sg_dg1", ConversationType: 3, GroupID: "dg1"},
		bucket.Conversation{OwnerUserID: "dpb", ConversationID: "sg_dg1", ConversationType: 3, GroupID: "dg1", MinSeq: 12})
	seqUser := func(min, read int64) bson.D {
		return bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "user_id", Value: "dpb"}, {Key: "conversation_id", Value: "sg_dg1"},
			{Key: "min_seq", Value: min}, {Key: "max_seq", Value: int64(0)}, {Key: "read_seq", Value: read}}
	}
	s.importDocs(t, "seq_user", seqUser(12, 11), seqUser(0, 0))
	return s
}

// TestDuplicateSeqUserIsReadAsTheServerReadsIt: the server pulls dpb
// nothing of seqs 1-11 (the first seq_user document, min_seq 12, is the one
// its FindOne returns), so dump shows dpb none of them, and says that dpb
// has two documents and which one the server reads; check lists them and
// deletes neither.
func TestDuplicateSeqUserIsReadAsTheServerReadsIt(t *testing.T) {
	t.Parallel()
	s := clearedGroup(t)
	res := s.chatlens(t, "dump", "--conversation", "sg_dg1", "--as", "dpb", "--format", "json", "--explain")
	if res.code != 0 {
		t.Fatalf("dump: exit %d: %s", res.code, res.stderr)
	}
	if strings.TrimSpace(res.stdout) != "" {
		t.Errorf("dump --as dpb printed seqs the server does not pull dpb:\n%s", res.stdout)
	}
	for _, want := range []string{"dpb has 2 seq_user documents for sg_dg1", "min_seq 12 from the first stored document"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("dump's stderr %q does not say %q", res.stderr, want)
		}
	}
	if out := s.mustRun(t, "dump", "--conversation", "sg_dg1", "--as", "dpa"); !strings.Contains(out, "11") {
		t.Errorf("dpa, with one seq_user document or none, should see seq 11:\n%s", out)
	}
	check := s.chatlens(t, "check")
	if !strings.Contains(check.stdout+check.stderr, `2 seq_user documents for user "dpb" in "sg_dg1"`) {
		t.Errorf("check does not list dpb's two seq_user documents:\n%s%s", check.stdout, check.stderr)
	}
	if n := strings.Count(s.mustRun(t, "export", "--collection", "seq_user"), "\n"); n != 2 {
		t.Errorf("after check, seq_user exports %d documents, want both still there", n)
	}
}
