package projection

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// FuzzView: any stored slot, any viewer, any quote: no panic, and the
// read-time rules hold.
func FuzzView(f *testing.F) {
	f.Add(int32(101), text("hi"), "bob", "bob", true, false, int64(1), int32(1), `{"content":"x"}`, false)
	f.Add(int32(114), quoteOf("re", 3, text("x")), "bob", "bob", false, true, int64(1), int32(3), text("x"), true)
	f.Add(int32(114), `{"quoteMessage":{"seq":"3"}}`, "", "", false, false, int64(0), int32(0), ``, true)
	f.Add(int32(1501), notice(map[string]any{"opUser": 1}), "u", "v", true, true, int64(5), int32(4), `\x1b]52;c;x`, false)
	f.Fuzz(func(t *testing.T, ct int32, content, viewer, deleter string, isRead, revoked bool, sendTime int64, session int32, quotedContent string, quotedRevoked bool) {
		msg := message(3, ct, content)
		msg.SendTime, msg.SessionType = sendTime, session
		mods := []func(*bucket.Slot){deletedBy(deleter)}
		if isRead {
			mods = append(mods, read)
		}
		if revoked {
			mods = append(mods, revokedBy("r", "R", 60, 1))
		}
		s := stored(3, msg, mods...)
		qmods := []func(*bucket.Slot){deletedBy(deleter)}
		if quotedRevoked {
			qmods = append(qmods, revokedBy("r", "R", 60, 1))
		}
		m := View(s, "", viewer, Conv{ID: single}, lookupOf(stored(3, message(3, Text, quotedContent), qmods...)))

		switch {
		case sendTime == 0:
			if !m.Hole || m.Status != 4 {
				t.Fatalf("send_time 0 is not a hole: %+v", m)
			}
		case viewer != "" && viewer == deleter && m.Status != 4:
			t.Fatalf("deleted for the viewer but status %d", m.Status)
		case revoked && (m.ContentType != RevokeNotice || m.Content != RevokeContent(msg, s.Slot.Revoke)):
			t.Fatalf("revoked but shows type %d %q", m.ContentType, m.Content)
		case !revoked && viewer != "" && viewer == deleter && m.Content != "":
			t.Fatalf("deleted for the viewer but content %q", m.Content)
		case m.IsRead && session != bucket.SessionSingle:
			t.Fatal("is_read reported outside a single chat")
		}
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("marshal: %v", err)
		}
		checkSafeLine(t, Summary(m))
		for _, line := range Detail(m, time.UTC) {
			checkSafeLine(t, line)
		}
	})
}

// FuzzSummary: any content of any type renders as one safe line.
func FuzzSummary(f *testing.F) {
	f.Add(int32(101), text("hello\nworld"), int32(2))
	f.Add(int32(102), `{"sourcePicture":{"width":1e308,"height":-1}}`, int32(2))
	f.Add(int32(105), `{"fileName":"\u202e","fileSize":"9e99"}`, int32(2))
	f.Add(int32(114), `{"text":"a","quoteMessage":{"contentType":114,"content":"{\"quoteMessage\":{}}"}}`, int32(2))
	f.Add(int32(1512), `{"detail":"{\"mutedSeconds\":-5}"}`, int32(2))
	f.Add(int32(2101), `{"detail":"{\"revokerNickname\":\"\u001b[2J\"}"}`, int32(4))
	f.Fuzz(func(t *testing.T, ct int32, content string, status int32) {
		m := Message{MsgData: bucket.MsgData{Seq: 1, ContentType: ct, Content: content, Status: status, SenderNickname: content}}
		checkSafeLine(t, Summary(m))
		for _, line := range Detail(m, time.UTC) {
			checkSafeLine(t, line)
		}
	})
}

// FuzzSanitize: nothing a terminal acts on survives, and the one-line and
// truncated forms stay one line and within width.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[2J", "\x1b]52;c;eA==\x07", "\x9b31m", "\u202e", "\xff\x00", "你好\r\n👋🏽", "\u009b",
		"a\u200d\u2026", "\U0001F468\u200d\U0001F469", "x\u3164\U000E0041"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		out := Sanitize(s)
		if r, bad := dangerous(out); bad {
			t.Fatalf("Sanitize(%q) = %q still holds %U", s, out, r)
		}
		if Sanitize(out) != out {
			t.Fatalf("not idempotent: %q", out)
		}
		one := SingleLine(s)
		checkSafeLine(t, one)
		width = width % 200
		if cut := Truncate(one, width); width > 0 && Width(cut) > width {
			t.Fatalf("Truncate(%q, %d) is %d cells", one, width, Width(cut))
		}
	})
}

func checkSafeLine(t *testing.T, s string) {
	t.Helper()
	if r, bad := dangerous(s); bad {
		t.Fatalf("%q holds %U", s, r)
	}
	if strings.ContainsAny(s, "\n\t") {
		t.Fatalf("%q is not one line", s)
	}
}
