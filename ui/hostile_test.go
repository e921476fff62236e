package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// Hostile content (issue 5): message text, nicknames and names holding
// escape sequences, other control characters, bidi controls and 100 KB
// lines. Whatever screen shows them — the list preview, the timeline, the
// inspector, the compare view — draws no byte a terminal would act on. The
// ASCII colour profile (TestMain) means lipgloss itself emits no escape,
// so any ESC on screen came from the data.

const (
	chatEvil = "si_alice_eve"
	evilNick = "\x1b]0;owned\x07Eve\u202e"
)

// hostileTexts are message texts that try to act on the terminal.
var hostileTexts = []struct{ name, text string }{
	{"CSI clear and cursor moves", "\x1b[2J\x1b[H\x1b[10;10Hmoved \x1b[1A\x1b[K\x1b[?1049h"},
	{"OSC 0 title, BEL ended", "\x1b]0;pwned title\x07after"},
	{"OSC 2 title, ST ended", "\x1b]2;pwned title\x1b\\after"},
	{"OSC 52 clipboard write", "\x1b]52;c;cm0gLXJmIH4K\x07copy me"},
	{"OSC 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\"},
	{"DCS request", "\x1bP+q544e\x1b\\\x1bP$q\"p\x1b\\"},
	{"C1 CSI and OSC as runes", "\u009b2J\u009d0;t\u009c\u0090q\u009c"},
	{"C1 CSI as a raw byte", "raw \x9b2J \x9d0;t\x07"},
	{"other C0 controls", "bell\x07 bs\x08\x08 cr\rover nul\x00 vt\x0b ff\x0c so\x0e del\x7f"},
	{"bidi overrides and isolates", "abc\u202edcba\u202c \u202aLRE\u202b \u2066iso\u2067\u2068\u2069 \u202d"},
	{"newlines and tabs", "line one\nline two\r\n\tindented"},
	{"100 KB line", strings.Repeat("A", 100<<10) + "\x1b[2Jend"},
}

// seedHostile writes one hostile message per seq of chatEvil (eve sends the
// odd seqs), a hostile quote and file name, and a hostile nickname; alice
// reads up to seq 1.
func seedHostile(t *testing.T, st *store.Store) {
	t.Helper()
	var msgs []*bucket.MsgData
	for i, h := range hostileTexts {
		from, to := "eve", "alice"
		if i%2 == 1 {
			from, to = to, from
		}
		m := textMsg(from, to, "", bucket.SessionSingle, i+1, "")
		m.Content = jsonContent(t, map[string]any{"content": h.text})
		m.SenderNickname = evilNick
		msgs = append(msgs, m)
	}
	n := len(msgs)
	quote := textMsg("eve", "alice", "", bucket.SessionSingle, n+1, "")
	quote.ContentType = 114
	quote.Content = jsonContent(t, map[string]any{"text": hostileTexts[3].text, "quoteMessage": map[string]any{
		"seq": 1, "contentType": 101, "sendID": "eve", "senderNickname": evilNick,
		"content": jsonContent(t, map[string]any{"content": hostileTexts[0].text})}})
	file := textMsg("alice", "eve", "", bucket.SessionSingle, n+2, "")
	file.ContentType = 105
	file.Content = jsonContent(t, map[string]any{"fileName": "\u202eexe.pdf\x1b]52;c;eA==\x07", "fileSize": 12})
	rawEsc := textMsg("eve", "alice", "", bucket.SessionSingle, n+3, "")
	rawEsc.Content = "not JSON \x1b[31m\x1b]0;t\x07 at all" // stored content that breaks the contract
	last := textMsg("eve", "alice", "", bucket.SessionSingle, n+4, "")
	last.Content = jsonContent(t, map[string]any{"content": hostileTexts[1].text + hostileTexts[3].text})
	last.SenderNickname = evilNick
	msgs = append(msgs, quote, file, rawEsc, last)
	if _, err := st.InsertMessages(context.Background(), chatEvil, 1, msgs); err != nil {
		t.Fatal(err)
	}
	insertRaw(t, st, bucket.CollUser, bucket.User{UserID: "alice", Nickname: "Alice"},
		bucket.User{UserID: "eve", Nickname: evilNick})
	insertRaw(t, st, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "alice", ConversationID: chatEvil, ConversationType: 1, UserID: "eve"},
		bucket.Conversation{OwnerUserID: "eve", ConversationID: chatEvil, ConversationType: 1, UserID: "alice"})
	insertRaw(t, st, bucket.CollSeqUser, bucket.SeqUser{UserID: "alice", ConversationID: chatEvil, ReadSeq: 1})
}

func jsonContent(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHostileContentIsDrawnInert(t *testing.T) {
	t.Parallel()
	const width, height = 100, 30
	st, _ := newTestStore(t, false)
	seedHostile(t, st)
	opts, clip := testOptions(t, "alice")
	d := newDriver(t, st, opts, width, height)
	wantSafeScreen(t, "conversation list", d.m.View(), width)
	if !strings.Contains(d.m.View(), "Eve") {
		t.Fatalf("the list does not show the conversation with eve:\n%s", d.m.View())
	}

	d.open(chatEvil)
	wantSafeScreen(t, "timeline", d.m.View(), width)
	total := int64(len(hostileTexts) + 4)
	for seq := int64(1); seq <= total; seq++ {
		d.jump(seq)
		where := fmt.Sprintf("timeline at seq %d", seq)
		if seq <= int64(len(hostileTexts)) {
			where += " (" + hostileTexts[seq-1].name + ")"
		}
		wantSafeScreen(t, where, d.m.View(), width)
		if seq == 2 && !strings.Contains(rowOf(d.m.View(), 2), "^[]0;pwned title^Gafter") {
			t.Errorf("seq 2 does not show its escape sequence as visible text: %q", rowOf(d.m.View(), 2))
		}
		d.keys("i")
		wantSafeScreen(t, "inspector of "+where, d.m.View(), width)
		for range 40 { // page through the whole inspector
			d.keys("pgdown")
		}
		wantSafeScreen(t, "inspector end of "+where, d.m.View(), width)
		d.keys("esc")
	}

	d.keys("c")
	d.typeText("eve")
	d.keys("enter")
	if !strings.Contains(d.m.View(), "vs ") {
		t.Fatalf("compare did not open:\n%s", d.m.View())
	}
	for seq := int64(1); seq <= total; seq++ {
		d.jump(seq)
		wantSafeScreen(t, fmt.Sprintf("compare at seq %d", seq), d.m.View(), width)
	}

	// The clipboard gets exactly one OSC 52 sequence, ours: the text copied
	// holds no escape of its own.
	d.jump(4)
	d.keys("y", "y")
	if got := clip.String(); strings.Count(got, "\x1b]52;") != 1 || strings.Count(got, "\x1b") > 2 {
		t.Errorf("copying an OSC 52 message wrote %q to the terminal", got)
	}
}

// TestInvisibleCharactersAreShown: text hidden in a message (tag
// characters spelling IGNORE after "hello", Hangul fillers, a zero width
// joiner between ASCII letters) is drawn visibly, and no row keeps a
// character whose width tmux 3.3a and lipgloss disagree on (the filler
// U+1160: 0 cells drawn, 1 measured; a ZWJ before "…": tmux merges the
// two), so every line of the screen is as wide as measured.
func TestInvisibleCharactersAreShown(t *testing.T) {
	const width, height = 140, 20
	texts := []struct{ text, shown string }{
		{"hello\U000E0001\U000E0049\U000E0047\U000E004E\U000E004F\U000E0052\U000E0045\U000E007F", "hello<U+E0001><U+E0049>"},
		{"pay\u200dpal a\u200d\u2026", "pay<U+200D>pal a<U+200D>…"},
		{"x\u1160y\u3164z\u115f\uffa0", "x<U+1160>y<U+3164>z<U+115F><U+FFA0>"},
		{"k\u034fh\u17b4m\u17b5", "k<U+034F>h<U+17B4>m<U+17B5>"},
	}
	st, _ := newTestStore(t, false)
	var msgs []*bucket.MsgData
	for i, c := range texts {
		m := textMsg("eve", "alice", "", bucket.SessionSingle, i+1, "")
		m.Content = jsonContent(t, map[string]any{"content": c.text})
		msgs = append(msgs, m)
	}
	if _, err := st.InsertMessages(context.Background(), chatEvil, 1, msgs); err != nil {
		t.Fatal(err)
	}
	insertRaw(t, st, bucket.CollConversation,
		bucket.Conversation{OwnerUserID: "alice", ConversationID: chatEvil, ConversationType: 1, UserID: "eve"})
	opts, _ := testOptions(t, "alice")
	d := newDriver(t, st, opts, width, height)
	d.open(chatEvil)
	view := d.m.View()
	for i, c := range texts {
		if row := rowOf(view, int64(i+1)); !strings.Contains(row, c.shown) {
			t.Errorf("seq %d drawn %q, want it to show %q", i+1, row, c.shown)
		}
	}
	for n, line := range strings.Split(view, "\n") {
		for _, r := range line {
			if bucket.UnsafeRune(r) || r == 0x200d {
				t.Errorf("line %d holds %U raw: %q", n+1, r, line)
			}
		}
		if w := lipgloss.Width(line); w != width {
			t.Errorf("line %d is %d cells wide, the screen %d: %q", n+1, w, width, line)
		}
	}
}
