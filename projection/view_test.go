package projection

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// What each read-time rule (the numbered list in doc.go) makes a viewer see.
func TestViewRules(t *testing.T) {
	hello := text("hello")
	revokeOf := func(m *bucket.MsgData) string {
		return RevokeContent(m, &bucket.Revoke{Role: 100, UserID: "alice", Nickname: "Alice", Time: 1700000009999})
	}
	tests := []struct {
		name   string
		slot   bucket.StoredSlot
		conv   Conv
		viewer string
		want   Message // only the fields below are compared
	}{
		{"plain message is shown as stored", stored(5, message(5, Text, hello)), Conv{ID: single}, "bob",
			Message{MsgData: bucket.MsgData{ContentType: Text, Content: hello, Status: 2}}},
		{"rule 1: slot is_read reported in a single chat", stored(5, message(5, Text, hello), read), Conv{ID: single}, "bob",
			Message{MsgData: bucket.MsgData{ContentType: Text, Content: hello, Status: 2, IsRead: true}}},
		{"rule 1: is_read not reported in a group chat", stored(5, groupMessage(5, Text, hello), read), Conv{ID: group}, "bob",
			Message{MsgData: bucket.MsgData{ContentType: Text, Content: hello, Status: 2, IsRead: false}}},
		{"rule 1: msg.is_read is never used", stored(5, func() *bucket.MsgData { m := message(5, Text, hello); m.IsRead = true; return m }()), Conv{ID: single}, "bob",
			Message{MsgData: bucket.MsgData{ContentType: Text, Content: hello, Status: 2, IsRead: false}}},
		{"rule 1: no session type on the message: the conversation's", stored(5, func() *bucket.MsgData { m := message(5, Text, hello); m.SessionType = 0; return m }(), read),
			Conv{ID: single, SessionType: bucket.SessionSingle}, "bob",
			Message{MsgData: bucket.MsgData{ContentType: Text, Content: hello, Status: 2, IsRead: true}}},
		{"rule 2: viewer in del_list sees no content and status 4", stored(5, message(5, Text, hello), deletedBy("bob")), Conv{ID: single}, "bob",
			Message{MsgData: bucket.MsgData{ContentType: Text, Content: "", Status: 4}, DeletedForViewer: true}},
		{"rule 2: viewer not in del_list sees the content", stored(5, message(5, Text, hello), deletedBy("bob")), Conv{ID: single}, "alice",
			Message{MsgData: bucket.MsgData{ContentType: Text, Content: hello, Status: 2}}},
		{"rule 2: an empty viewer matches no del_list entry", stored(5, message(5, Text, hello), deletedBy("")), Conv{ID: single}, "",
			Message{MsgData: bucket.MsgData{ContentType: Text, Content: hello, Status: 2}}},
		{"rule 3: revoked message shows the revoke", stored(5, message(5, Text, hello), revokedBy("alice", "Alice", 100, 1700000009999)), Conv{ID: single}, "bob",
			Message{MsgData: bucket.MsgData{ContentType: 2101, Content: revokeOf(message(5, Text, hello)), Status: 2}, Revoked: true}},
		{"rule 2+3: deleted and revoked keeps status 4 with the revoke content", stored(5, message(5, Text, hello), deletedBy("bob"), revokedBy("alice", "Alice", 100, 1700000009999)), Conv{ID: single}, "bob",
			Message{MsgData: bucket.MsgData{ContentType: 2101, Content: revokeOf(message(5, Text, hello)), Status: 4}, Revoked: true, DeletedForViewer: true}},
		{"rule 2+3: revoked, deleted by someone else", stored(5, message(5, Text, hello), deletedBy("bob"), revokedBy("alice", "Alice", 100, 1700000009999)), Conv{ID: single}, "alice",
			Message{MsgData: bucket.MsgData{ContentType: 2101, Content: revokeOf(message(5, Text, hello)), Status: 2}, Revoked: true}},
		{"rule 1+2: deleted keeps the read flag", stored(5, message(5, Text, hello), read, deletedBy("bob")), Conv{ID: single}, "bob",
			Message{MsgData: bucket.MsgData{ContentType: Text, Content: "", Status: 4, IsRead: true}, DeletedForViewer: true}},
		{"rule 4: null msg is a hole", stored(5, nil), Conv{ID: single}, "bob", Message{MsgData: bucket.MsgData{Status: 4}, Hole: true}},
		{"rule 4: send_time 0 is a hole", stored(5, func() *bucket.MsgData { m := message(5, Text, hello); m.SendTime = 0; return m }()), Conv{ID: single}, "bob",
			Message{MsgData: bucket.MsgData{Status: 4}, Hole: true}},
		{"rule 4: missing slot is a hole", bucket.StoredSlot{Seq: 5}, Conv{ID: single}, "bob", Message{MsgData: bucket.MsgData{Status: 4}, Hole: true}},
		{"rule 4: a revoke without a message is still a hole", stored(5, nil, revokedBy("alice", "Alice", 100, 1)), Conv{ID: single}, "bob",
			Message{MsgData: bucket.MsgData{Status: 4}, Hole: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := View(tc.slot, "", tc.viewer, tc.conv, nil)
			type seen struct {
				ContentType                    int32
				Content                        string
				Status                         int32
				IsRead, Hole, Deleted, Revoked bool
			}
			g := seen{got.ContentType, got.Content, got.Status, got.IsRead, got.Hole, got.DeletedForViewer, got.Revoked}
			w := seen{tc.want.ContentType, tc.want.Content, tc.want.Status, tc.want.IsRead, tc.want.Hole, tc.want.DeletedForViewer, tc.want.Revoked}
			if g != w {
				t.Errorf("View:\n got %+v\nwant %+v", g, w)
			}
		})
	}
}

// The stored slot is left alone: projecting for one viewer cannot change
// what the next viewer sees.
func TestViewDoesNotChangeTheSlot(t *testing.T) {
	s := stored(5, message(5, Text, text("hi")), deletedBy("bob"), revokedBy("alice", "Alice", 100, 1))
	_ = View(s, "", "bob", Conv{ID: single}, nil)
	if s.Slot.Msg.Content != text("hi") || s.Slot.Msg.ContentType != Text || s.Slot.Msg.Status != 2 {
		t.Fatalf("stored message changed: %+v", s.Slot.Msg)
	}
}

func TestViewAddressesAndRawFields(t *testing.T) {
	s := stored(250, message(250, Text, text("x")), deletedBy("bob"), read)
	s.Problem = "message says seq 7 but its slot holds seq 250"
	s.Slot.Msg.Seq = 7
	m := View(s, "", "bob", Conv{ID: single}, nil)
	if m.Seq != 250 || m.DocID != single+":2" || m.Index != 49 {
		t.Errorf("address: seq %d doc %q index %d, want 250 %q 49", m.Seq, m.DocID, m.Index, single+":2")
	}
	if m.RawContent != text("x") || m.RawContentType != Text || m.RawSeq != 7 || !m.SlotIsRead || len(m.DelList) != 1 {
		t.Errorf("raw fields lost: %+v", m)
	}
	if m.Problem == "" || m.Viewer != "bob" {
		t.Errorf("problem %q viewer %q", m.Problem, m.Viewer)
	}
	if got := View(s, "given:9", "bob", Conv{ID: single}, nil).DocID; got != "given:9" {
		t.Errorf("given docID replaced by %q", got)
	}
	if h := View(bucket.StoredSlot{Seq: 101, Problem: "slot is null"}, "", "bob", Conv{ID: single}, nil); h.Index != 0 || h.DocID != single+":1" || h.Problem != "slot is null" {
		t.Errorf("hole address/problem: %+v", h)
	}
}

// holeJSON is OpenIM's stand-in for seq 7 of single, as pull_u3.json shows
// one: every field zero but seq, status 4 and sendTime, content null.
func holeJSON(sendTime string) string {
	return `{"sendID":"","recvID":"","groupID":"","clientMsgID":"","serverMsgID":"","senderPlatformID":0,` +
		`"senderNickname":"","senderFaceURL":"","sessionType":0,"msgFrom":0,"contentType":0,"content":null,` +
		`"seq":7,"sendTime":` + sendTime + `,"createTime":0,"status":4,"isRead":false,"offlinePushInfo":null,` +
		`"atUserIDList":null,"attachedInfo":"","ex":"","docID":"si_alice_bob:0","index":6}`
}

// The pull's sdkws.MsgData: every field in the server's order
// (shared/openim-recorded/pull_*.json), then chatlens's docID and index.
func TestMessageJSONShape(t *testing.T) {
	hole := View(stored(7, nil), "", "bob", Conv{ID: single}, nil)
	if b, err := json.Marshal(hole); err != nil || string(b) != holeJSON("0") {
		t.Errorf("hole JSON = %s (%v)", b, err)
	}
	m := View(stored(101, message(101, Text, text("hi")), read), "", "bob", Conv{ID: single}, nil)
	want := `{"sendID":"alice","recvID":"bob","groupID":"","clientMsgID":"c101","serverMsgID":"s101",` +
		`"senderPlatformID":0,"senderNickname":"Alice","senderFaceURL":"","sessionType":1,"msgFrom":100,` +
		`"contentType":101,"content":"{\"content\":\"hi\"}","seq":101,"sendTime":1700000000101,` +
		`"createTime":1700000000101,"status":2,"isRead":true,"offlinePushInfo":null,"atUserIDList":[],` +
		`"attachedInfo":"","ex":"","docID":"si_alice_bob:1","index":0}`
	if b, err := json.Marshal(m); err != nil || string(b) != want {
		t.Errorf("message JSON:\n got %s\nwant %s (%v)", b, want, err)
	}
	// HTML characters are escaped or not as the caller's encoder says.
	lt := View(stored(3, message(3, Text, `{"content":"a<b&c"}`)), "", "bob", Conv{ID: single}, nil)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(lt)
	if !strings.Contains(buf.String(), `a<b&c`) {
		t.Errorf("unescaped encoder escaped HTML: %s", buf.String())
	}
	if b, _ := json.Marshal(lt); !strings.Contains(string(b), `a\u003cb\u0026c`) {
		t.Errorf("json.Marshal left HTML unescaped: %s", b)
	}
	// Inside a slice too (dump may marshal a page at once).
	b, _ := json.Marshal([]Message{hole})
	if string(b) != "["+holeJSON("0")+"]" {
		t.Errorf("hole in a slice = %s", b)
	}
}

func TestRevokeContentShape(t *testing.T) {
	msg := message(42, Text, text("secret"))
	msg.Ex = "x"
	got := RevokeContent(msg, &bucket.Revoke{Role: 60, UserID: "carol", Nickname: "Carol", Time: 1700000001000})
	want := `{"detail":"{\"revokerID\":\"carol\",\"revokerRole\":60,\"clientMsgID\":\"c42\",\"revokerNickname\":\"Carol\",` +
		`\"revokeTime\":1700000001000,\"sourceMessageSendTime\":1700000000042,\"sourceMessageSendID\":\"alice\",` +
		`\"sourceMessageSenderNickname\":\"Alice\",\"sessionType\":1,\"seq\":42,\"ex\":\"x\"}"}`
	if got != want {
		t.Errorf("revoke content:\n got %s\nwant %s", got, want)
	}
	if RevokeContent(nil, nil) != "" {
		t.Error("revoke content of nothing is not empty")
	}
}

func TestSame(t *testing.T) {
	s := stored(5, message(5, Text, text("hi")), deletedBy("bob"))
	alice := View(s, "", "alice", Conv{ID: single}, nil)
	bob := View(s, "", "bob", Conv{ID: single}, nil)
	carol := View(s, "", "carol", Conv{ID: single}, nil)
	if Same(alice, bob) {
		t.Error("alice and bob see the same, but bob deleted it")
	}
	if !Same(alice, carol) {
		t.Error("alice and carol differ, but neither deleted it")
	}
	h1 := View(stored(6, nil), "", "alice", Conv{ID: single}, nil)
	h2 := View(stored(6, nil), "", "bob", Conv{ID: single}, nil)
	if !Same(h1, h2) || Same(h1, alice) {
		t.Error("holes compare wrong")
	}
	r := stored(5, message(5, Text, text("hi")), revokedBy("alice", "Alice", 100, 1))
	if !Same(View(r, "", "alice", Conv{ID: single}, nil), View(r, "", "bob", Conv{ID: single}, nil)) {
		t.Error("a revoke is seen the same by everyone")
	}
}

// A message deleted for the viewer is pulled with content null and status 4
// (pull_u2.json, si_u1_u2 seq 4); revoked as well, the revoke's content wins
// and the status stays 4 (pull_u3.json, sg_g1 seq 3). Options, offline push
// and the other MsgData fields come through as stored.
func TestDeletedContentIsNull(t *testing.T) {
	fields := func(m Message) map[string]any {
		var o map[string]any
		b, err := json.Marshal(m)
		if err != nil || json.Unmarshal(b, &o) != nil {
			t.Fatalf("marshal %+v: %v", m, err)
		}
		return o
	}
	msg := message(4, Text, text("hi"))
	msg.Options = map[string]bool{"history": true}
	msg.OfflinePush = &bucket.OfflinePush{Title: "t", IOSPushSound: "s"}
	deleted := fields(View(stored(4, msg, deletedBy("bob")), "", "bob", Conv{ID: single}, nil))
	if c, ok := deleted["content"]; !ok || c != nil || deleted["status"] != float64(4) {
		t.Errorf("deleted for bob: content %#v (present %v), status %v; want null, 4", c, ok, deleted["status"])
	}
	if o, _ := deleted["options"].(map[string]any); o["history"] != true {
		t.Errorf("options = %#v", deleted["options"])
	}
	if p, _ := deleted["offlinePushInfo"].(map[string]any); p["title"] != "t" || p["iOSPushSound"] != "s" || p["signalInfo"] != "" {
		t.Errorf("offlinePushInfo = %#v", deleted["offlinePushInfo"])
	}
	if alice := fields(View(stored(4, msg, deletedBy("bob")), "", "alice", Conv{ID: single}, nil)); alice["content"] != text("hi") {
		t.Errorf("alice, not in del_list: content %#v", alice["content"])
	}
	both := fields(View(stored(4, msg, deletedBy("bob"), revokedBy("alice", "Alice", 0, 1)), "", "bob", Conv{ID: single}, nil))
	if c, _ := both["content"].(string); !strings.Contains(c, "revokerID") || both["status"] != float64(4) || both["contentType"] != float64(RevokeNotice) {
		t.Errorf("deleted and revoked: %v %v %v", both["content"], both["status"], both["contentType"])
	}
	if _, ok := fields(View(stored(5, message(5, Text, text("x"))), "", "bob", Conv{ID: single}, nil))["options"]; ok {
		t.Error("a message without options carries an options field; the pull leaves it out")
	}
}
