package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/embedded"
)

// Hostile content (issue 5) through the commands: message text, nicknames
// and revoker names holding escape sequences, other controls, bidi controls
// and a 100 KB line. `dump --format text` prints none of it raw; `--format
// json` escapes it.

var hostileTexts = []string{
	"\x1b[2J\x1b[H\x1b[10;10Hmoved",
	"\x1b]0;pwned title\x07after",
	"\x1b]2;pwned\x1b\\after",
	"\x1b]52;c;cm0gLXJmIH4K\x07copy",
	"\x1bP+q544e\x1b\\dcs",
	"\u009b2J\u009d0;t\u009c c1",
	"raw \x9b2J \x9d0;t byte",
	"bell\x07 bs\x08 nul\x00 cr\rover del\x7f",
	"abc\u202edcba\u202c \u2066iso\u2069",
	"line one\nline two\r\n\tindented",
	strings.Repeat("A", 100<<10) + "\x1b[2Jend",
}

const hostileCid = "si_alice_eve"

// hostileSandbox is an empty sandbox holding one conversation of hostile
// messages, the last one revoked by a hostile nickname.
func hostileSandbox(t *testing.T) sandbox {
	t.Helper()
	s := empty(t)
	b, err := embedded.Open(s.data, embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	st := store.New(b, store.Options{})
	var msgs []*store.MsgData
	for i, text := range hostileTexts {
		content, _ := json.Marshal(map[string]string{"content": text})
		msgs = append(msgs, &store.MsgData{SendID: "eve", RecvID: "alice", ClientMsgID: fmt.Sprint("c", i),
			SenderNickname: "\x1b]0;x\x07Eve\u202e", SessionType: store.SessionSingle, MsgFrom: store.MsgFromUser,
			ContentType: 101, Content: string(content), SendTime: 1700000000000 + int64(i), Status: store.StatusSent,
			Options: map[string]bool{}, AtUserIDList: []string{}})
	}
	ctx := context.Background()
	if _, err := st.InsertMessages(ctx, hostileCid, 1, msgs); err != nil {
		t.Fatal(err)
	}
	rev := store.Revoke{UserID: "eve", Nickname: "\x1b[31mEve\u202e", Time: 1700000009999}
	if _, err := st.Revoke(ctx, hostileCid, []int64{int64(len(msgs))}, rev); err != nil {
		t.Fatal(err)
	}
	return s
}

// wantInert fails on any byte of out a terminal would act on.
func wantInert(t *testing.T, what, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Errorf("%s: invalid UTF-8 in the output", what)
	}
	for i, r := range out {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Errorf("%s: %U at byte %d: …%q…", what, r, i, out[max(0, i-30):min(len(out), i+10)])
			return
		}
	}
}

func TestDumpNeverPrintsHostileContentRaw(t *testing.T) {
	s := hostileSandbox(t)
	text := s.mustRun(t, "dump", "--conversation", hostileCid, "--as", "alice", "--format", "text")
	wantInert(t, "dump --format text", text)
	if n := strings.Count(strings.TrimSpace(text), "\n") + 1; n != len(hostileTexts) {
		t.Errorf("text dump has %d lines for %d messages", n, len(hostileTexts))
	}
	if !strings.Contains(text, "^[]0;pwned title^Gafter") {
		t.Errorf("the OSC title is not shown as visible text:\n%.2000s", text)
	}

	js := s.mustRun(t, "dump", "--conversation", hostileCid, "--as", "alice", "--format", "json")
	wantInert(t, "dump --format json", js)
	lines := strings.Split(strings.TrimSpace(js), "\n")
	for i, line := range lines[:len(hostileTexts)-1] {
		var m struct{ Content string }
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("json line %d: %v", i+1, err)
		}
		var c struct{ Content string }
		_ = json.Unmarshal([]byte(m.Content), &c)
		if want := strings.ToValidUTF8(hostileTexts[i], "\ufffd"); c.Content != want {
			t.Errorf("json line %d decodes to %q, want the stored text %q", i+1, c.Content, want)
		}
	}

	conv := s.mustRun(t, "conversations", "--as", "alice")
	wantInert(t, "conversations", conv)
	check := s.chatlens(t, "check")
	wantInert(t, "check", check.stdout+check.stderr)
}
