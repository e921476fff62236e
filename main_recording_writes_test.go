package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Writes on a store holding the recording, held to what the server did or
// answered in it and to its source.

// storedSlots reads the msg documents of cid through `export`: slot by seq.
func storedSlots(t *testing.T, r recordedStore, cid string) map[int64]map[string]any {
	t.Helper()
	res := r.chatlens(t, "export", "--collection", "msg", "--conversation", cid)
	if res.code != 0 {
		t.Fatalf("export: exit %d: %s", res.code, res.stderr)
	}
	out := map[int64]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		var doc struct {
			DocID string           `json:"doc_id"`
			Msgs  []map[string]any `json:"msgs"`
		}
		if err := json.Unmarshal([]byte(line), &doc); err != nil {
			t.Fatalf("export line: %v", err)
		}
		var idx int64
		if i := strings.LastIndexByte(doc.DocID, ':'); i >= 0 {
			json.Unmarshal([]byte(doc.DocID[i+1:]), &idx)
		}
		for i, slot := range doc.Msgs {
			out[idx*100+int64(i)+1] = slot
		}
	}
	return out
}

func sentBy(slot map[string]any) string {
	msg, _ := slot["msg"].(map[string]any)
	s, _ := msg["send_id"].(string)
	return s
}

// read --seq in a group does what /msg/mark_msgs_as_read does there:
// is_read on every listed seq the reader did not send (as_read.go
// MarkMsgsAsRead calls MarkSingleChatMsgsAsRead for every conversation
// type; the recording's own sg_g1 shows it for u3's mark of 1..30), and
// the read seq raised.
func TestReadInAGroupSetsIsReadAsTheServerDoes(t *testing.T) {
	t.Parallel()
	dir := recording(t)
	r := importRecording(t, dir, []string{"--data", filepath.Join(t.TempDir(), "recorded.db")})
	recorded := storedSlots(t, r, "sg_g1")
	for seq := int64(1); seq <= 30; seq++ {
		if slot := recorded[seq]; sentBy(slot) != "u3" && sentBy(slot) != "" && slot["is_read"] != true {
			t.Fatalf("the recording's sg_g1 seq %d (sent by %s) is not read after u3's mark of 1..30", seq, sentBy(slot))
		}
	}
	if res := r.chatlens(t, "read", "--conversation", "sg_g1", "--seq", "270-280", "--by", "u6"); res.code != 0 {
		t.Fatalf("read as u6: exit %d: %s", res.code, res.stderr)
	}
	after := storedSlots(t, r, "sg_g1")
	for seq := int64(270); seq <= 280; seq++ {
		if want := sentBy(after[seq]) != "u6"; after[seq]["is_read"] != want {
			t.Errorf("sg_g1 seq %d (sent by %s): is_read %v, want %v", seq, sentBy(after[seq]), after[seq]["is_read"], want)
		}
	}
	for _, o := range jsonLines(t, "conversations", r.chatlens(t, "conversations", "--as", "u6", "--format", "json").stdout) {
		if o["conversationID"] == "sg_g1" && num(o["hasReadSeq"]) != 284 {
			t.Errorf("u6's read seq %v after marking 270-280: the recorded 284 must stay, never lowered", o["hasReadSeq"])
		}
	}
}

// The server refuses what chatlens used to write: a mark read by a user
// with no conversation document (as_read.go: GetConversation fails), and a
// revoke of their own message by a member who left (revoke.go:
// GetGroupMemberInfoMap fails for a caller outside the group, 1002).
func TestRecordedRefusals(t *testing.T) {
	t.Parallel()
	dir := recording(t)
	r := importRecording(t, dir, []string{"--data", filepath.Join(t.TempDir(), "recorded.db")})
	before := storedSlots(t, r, "sg_g1")
	for _, c := range []struct {
		args []string
		why  string
	}{
		{[]string{"read", "--conversation", "sg_g1", "--seq", "30,31,32", "--by", "imAdmin"}, "no conversation document"},
		{[]string{"revoke", "--conversation", "sg_g1", "--seq", "10", "--by", "u4"}, "u4 is not a member of group g1"},
		// OpenIM keeps no conversation document for an n_* conversation
		// (the recording has none), so it refuses every mark read there.
		{[]string{"read", "--conversation", "n_u1_u2", "--seq", "1-5", "--by", "u1"}, "no conversation document for n_u1_u2"},
		{[]string{"read", "--conversation", "n_u1_u2", "--seq", "1-5", "--by", "u3"}, "no conversation document for n_u1_u2"},
	} {
		res := r.chatlens(t, c.args...)
		if res.code != 1 || res.stdout != "" || !strings.Contains(res.stderr, c.why) || !strings.Contains(res.stderr, "nothing written") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want a refusal naming %q", strings.Join(c.args, " "), res.code, res.stdout, res.stderr, c.why)
		}
		oneErrorLine(t, res.stderr)
	}
	after := storedSlots(t, r, "sg_g1")
	for _, seq := range []int64{10, 30, 31, 32} {
		b, _ := json.Marshal(before[seq])
		a, _ := json.Marshal(after[seq])
		if string(a) != string(b) {
			t.Errorf("sg_g1 seq %d changed by a refused write:\n%s\n%s", seq, b, a)
		}
	}
}

// The deployment's app admin (share.yml imAdminUserID, --openim-admin,
// imAdmin by default) revokes as themselves with no --admin: the server's
// RevokeMsg skips every permission check when authverify.IsAdmin passes
// the caller's token (internal/rpc/msg/revoke.go), and the recording's
// "app admin token, userID=imAdmin, revokes u1" left sg_g1 seq 22 revoked
// by imAdmin with role 0 and user.nickname "superAdmin". chatlens refused
// it: imAdmin is no member of g1.
func TestAppAdminRevokesAsThemselves(t *testing.T) {
	t.Parallel()
	dir := recording(t)
	r := importRecording(t, dir, []string{"--data", filepath.Join(t.TempDir(), "recorded.db")})
	recordedRevoke := storedSlots(t, r, "sg_g1")[22]["revoke"].(map[string]any)
	if recordedRevoke["user_id"] != "imAdmin" {
		t.Fatalf("the recording's sg_g1 seq 22 was revoked by %v, not imAdmin", recordedRevoke["user_id"])
	}
	res := r.chatlens(t, "revoke", "--conversation", "sg_g1", "--seq", "23", "--by", "imAdmin")
	if res.code != 0 || !strings.Contains(res.stdout, "by imAdmin as an app admin (role 0)") {
		t.Fatalf("revoke by imAdmin: exit %d, stdout %q, stderr %q; want it done as an app admin", res.code, res.stdout, res.stderr)
	}
	got := storedSlots(t, r, "sg_g1")[23]["revoke"].(map[string]any)
	for _, field := range []string{"user_id", "role", "nickname"} {
		if !reflect.DeepEqual(got[field], recordedRevoke[field]) {
			t.Errorf("revoke record %s = %v, the server wrote %v for imAdmin's revoke", field, got[field], recordedRevoke[field])
		}
	}
	// Another app admin ID: imAdmin is then an ordinary user, refused.
	res = r.chatlens(t, "revoke", "--conversation", "sg_g1", "--seq", "24", "--by", "imAdmin", "--openim-admin", "opsAdmin")
	if res.code != 1 || !strings.Contains(res.stderr, "not a member of group g1") {
		t.Errorf("revoke by imAdmin when opsAdmin is the app admin: exit %d, stderr %q; want the member rule's refusal", res.code, res.stderr)
	}
}

// Without Redis the newest seq is where the stored slots end. OpenIM's
// physical delete leaves {msg: null} alone in the slot (mgo/msg.go
// DeleteMsgsInOneDocByIndex), where a slot no message reached has revoke,
// del_list and is_read too: so a physically deleted newest message still
// ends the window, as MALLOC_SEQ's CURR does for the server
// (has_read_u1.json: si_u1_u2 maxSeq 120). chatlens ended it at 119.
func TestPhysicallyDeletedNewestStillEndsTheWindow(t *testing.T) {
	t.Parallel()
	src := recording(t)
	dir := t.TempDir()
	for _, coll := range recordedCollections {
		b, err := os.ReadFile(filepath.Join(src, coll+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if coll == "msg" {
			var lines []string
			for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				var doc map[string]any
				if err := json.Unmarshal([]byte(line), &doc); err != nil {
					t.Fatal(err)
				}
				if doc["doc_id"] == "si_u1_u2:1" {
					doc["msgs"].([]any)[19] = map[string]any{"msg": nil} // seq 120, as the physical delete leaves it
					nb, _ := json.Marshal(doc)
					line = string(nb)
				}
				lines = append(lines, line)
			}
			b = []byte(strings.Join(lines, "\n") + "\n")
		}
		if err := os.WriteFile(filepath.Join(dir, coll+".json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := importRecording(t, dir, []string{"--data", filepath.Join(t.TempDir(), "recorded.db")})
	if slot := storedSlots(t, r, "si_u1_u2")[120]; len(slot) != 1 || slot["msg"] != nil {
		t.Fatalf("seq 120 stored as %v, want {msg: null} alone", slot)
	}
	for _, o := range jsonLines(t, "conversations", r.chatlens(t, "conversations", "--as", "u1", "--format", "json").stdout) {
		if o["conversationID"] == "si_u1_u2" && num(o["maxSeq"]) != 120 {
			t.Errorf("u1's si_u1_u2 maxSeq %v; the server's is 120 (has_read_u1.json), seq 120 deleted or not", o["maxSeq"])
		}
	}
	rows := jsonLines(t, "dump", r.chatlens(t, "dump", "--conversation", "si_u1_u2", "--as", "u1", "--from", "118", "--format", "json").stdout)
	if len(rows) != 3 || num(rows[2]["seq"]) != 120 || num(rows[2]["status"]) != 4 {
		t.Errorf("dump of 118- as u1: %v; want seqs 118-120, 120 pulled as the deleted stand-in (status 4)", rows)
	}
}
