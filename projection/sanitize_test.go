package projection

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// dangerous reports the first character of s a terminal could act on:
// C0 controls other than \n and \t, DEL, C1 controls, bidi embeddings,
// overrides and isolates; or invalid UTF-8.
func dangerous(s string) (rune, bool) {
	if !utf8.ValidString(s) {
		return utf8.RuneError, true
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return r, true
		}
	}
	return 0, false
}

func TestSanitizeHostileStrings(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text untouched", "hello, world\n\tok", "hello, world\n\tok"},
		{"CJK and emoji untouched", "你好 👋 👨‍👩‍👧 🇫🇷 مرحبا", "你好 👋 👨‍👩‍👧 🇫🇷 مرحبا"},
		{"skin tone modifiers and text-width VS16 left out", "👋🏽 ✌🏿 ❤️ 😀️ 🏽", "👋 ✌ ❤ 😀️ 🏽"},
		{"line and paragraph separators", "a\u2028b\u2029c", "a<U+2028>b<U+2029>c"},
		{"zero width and invisible characters", "pay\u200bpal\u2060\ufeff\u00ad", "pay<U+200B>pal<U+2060><U+FEFF><U+00AD>"},
		{"tag characters spelling hidden text", "hello\U000E0001\U000E0049\U000E0047\U000E007F", "hello<U+E0001><U+E0049><U+E0047><U+E007F>"},
		{"Hangul fillers", "a\u3164b\u115fc\u1160d\uffa0e", "a<U+3164>b<U+115F>c<U+1160>d<U+FFA0>e"},
		{"grapheme joiner and Khmer inherent vowels", "a\u034fb\u17b4c\u17b5", "a<U+034F>b<U+17B4>c<U+17B5>"},
		{"zero width joiner between letters", "pay\u200dpal a\u200d\u2026 \u2764\u200d\u2026", "pay<U+200D>pal a<U+200D>\u2026 \u2764<U+200D>\u2026"},
		{"zero width joiner in emoji and conjuncts kept", "\U0001F468\u200d\U0001F469 \u0915\u094d\u200d\u0937", "\U0001F468\u200d\U0001F469 \u0915\u094d\u200d\u0937"},
		{"bidi marks", "\u200eabc\u200f\u061c", "<U+200E>abc<U+200F><U+061C>"},
		{"CSI cursor moves", "a\x1b[2J\x1b[H\x1b[10;10Hb", "a^[[2J^[[H^[[10;10Hb"},
		{"SGR colour", "\x1b[31mred\x1b[0m", "^[[31mred^[[0m"},
		{"OSC 0 title", "\x1b]0;pwned\x07text", "^[]0;pwned^Gtext"},
		{"OSC 52 clipboard", "\x1b]52;c;Y3VybCBldmlsfHNo\x1b\\", "^[]52;c;Y3VybCBldmlsfHNo^[\\"},
		{"OSC 8 hyperlink", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", "^[]8;;http://evil^[\\click^[]8;;^[\\"},
		{"DCS", "\x1bP+q544e\x1b\\", "^[P+q544e^[\\"},
		{"APC PM SOS", "\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\", "^[_apc^[\\^[^pm^[\\^[Xsos^[\\"},
		{"8-bit C1 CSI as a raw byte", "a\x9b2Jb", "a\uFFFD2Jb"},
		{"C1 CSI as a UTF-8 character", "a\u009b2Jb", "a<U+009B>2Jb"},
		{"C1 OSC and ST characters", "\u009d0;t\u009c", "<U+009D>0;t<U+009C>"},
		{"bidi override", "abc\u202Efed.exe", "abc<U+202E>fed.exe"},
		{"bidi embeddings and isolates", "\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069", "<U+202A><U+202B><U+202C><U+202D><U+2066><U+2067><U+2068><U+2069>"},
		{"invalid UTF-8", "ok\xff\xfe\xc3", "ok\uFFFD\uFFFD\uFFFD"},
		{"NUL", "a\x00b", "a^@b"},
		{"carriage return overwriting the line", "safe\rEVIL", "safe^MEVIL"},
		{"Windows line end", "one\r\ntwo", "one\ntwo"},
		{"backspace and bell", "x\b\by\a", "x^H^Hy^G"},
		{"DEL", "a\x7fb", "a^?b"},
		{"vertical tab and form feed", "a\v\fb", "a^K^Lb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Sanitize(tc.in)
			if got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if r, bad := dangerous(got); bad {
				t.Errorf("output still holds %U", r)
			}
			if Sanitize(got) != got {
				t.Errorf("Sanitize is not idempotent on %q", got)
			}
		})
	}
}

// Hostile content stays harmless through every rendering a terminal gets.
func TestRenderingsAreSanitised(t *testing.T) {
	evil := "\x1b]0;title\x07\x1b[2J\u202E\x9b\x00\r"
	contents := map[int32]string{
		Text:     text(evil),
		File:     jsonOf(map[string]any{"fileName": evil, "fileSize": 1}),
		Card:     jsonOf(map[string]any{"nickname": evil}),
		Location: jsonOf(map[string]any{"description": evil}),
		Custom:   jsonOf(map[string]any{"data": evil}),
		Merger:   jsonOf(map[string]any{"title": evil}),
		AtText:   jsonOf(map[string]any{"text": "@u1 " + evil, "atUsersInfo": []any{map[string]any{"atUserID": "u1", "groupNickname": evil}}}),
		Quote:    quoteOf(evil, 3, text(evil)),
		Markdown: text(evil),
		1501:     notice(map[string]any{"opUser": map[string]any{"nickname": evil}, "group": map[string]any{"groupName": evil}}),
		2101:     notice(map[string]any{"revokerNickname": evil}),
	}
	for ct, content := range contents {
		m := View(stored(5, message(5, ct, content)), "", "bob", Conv{ID: single}, nil)
		m.SenderNickname, m.Problem = evil, evil
		if r, bad := dangerous(Summary(m)); bad {
			t.Errorf("type %d: Summary holds %U: %q", ct, r, Summary(m))
		}
		if strings.Contains(Summary(m), "\n") {
			t.Errorf("type %d: Summary is not one line", ct)
		}
		for _, line := range Detail(m, time.UTC) {
			if r, bad := dangerous(line); bad || strings.ContainsAny(line, "\n") {
				t.Errorf("type %d: Detail line %q holds %U", ct, line, r)
			}
		}
	}
}

func TestSingleLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"one line", "one line"},
		{"two\nlines", "two lines"},
		{"  spaced \n\n\t out  ", "  spaced out  "},
		{"\nlead and trail\n", "lead and trail"},
		{"keep  double  spaces\nhere", "keep  double  spaces here"},
		{"tab\tseparated", "tab separated"},
		{"esc\x1b[1m\nnext", "esc^[[1m next"},
	}
	for _, tc := range tests {
		if got := SingleLine(tc.in); got != tc.want {
			t.Errorf("SingleLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTruncateAndWidth(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"},
		{"hello world", 8, "hello w…"},
		{"你好世界", 8, "你好世界"},
		{"你好世界", 7, "你好世…"},
		{"你好世界", 6, "你好…"}, // never half a wide character
		{"👋🏽👋🏽👋🏽", 5, "👋🏽👋🏽…"},
		{"👨‍👩‍👧 family", 3, "👨‍👩‍👧…"},
		{"abc", 0, ""},
		{"abc", -1, ""},
		{"abc", 1, "…"},
	}
	for _, tc := range tests {
		got := Truncate(tc.in, tc.width)
		if got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
		if tc.width > 0 && Width(got) > tc.width {
			t.Errorf("Truncate(%q, %d) is %d cells wide", tc.in, tc.width, Width(got))
		}
	}
	if Width("你好") != 4 || Width("ab") != 2 || Width("👋") != 2 {
		t.Errorf("widths: %d %d %d", Width("你好"), Width("ab"), Width("👋"))
	}
}

func TestHumanSizeAndDuration(t *testing.T) {
	sizes := map[int64]string{0: "0 B", 999: "999 B", 1000: "1.0 kB", 1234567: "1.2 MB", 12345678: "12 MB",
		999_999: "1.0 MB", 5_000_000_000: "5.0 GB", -1: "?"}
	for n, want := range sizes {
		if got := HumanSize(n); got != want {
			t.Errorf("HumanSize(%d) = %q, want %q", n, got, want)
		}
	}
	durations := map[int64]string{0: "0:00", 12: "0:12", 65: "1:05", 600: "10:00", 3600: "1:00:00", 3725: "1:02:05", -5: "?"}
	for s, want := range durations {
		if got := Duration(s); got != want {
			t.Errorf("Duration(%d) = %q, want %q", s, got, want)
		}
	}
}

// TestWidthsAsTmuxDrawsThem: what Sanitize leaves of an emoji takes the
// cells Width says, in tmux as in terminals that draw by grapheme. Measured
// with tmux 3.3a (print the text in a 40-column pane, read #{cursor_x}):
// ❤️ takes 1 cell, 👍🏽 4 and ✌🏽 3, where lipgloss (and Width) counted 2, 2
// and 1, so every row holding one shifted the border and left stale cells.
func TestWidthsAsTmuxDrawsThem(t *testing.T) {
	for _, c := range []struct {
		in        string
		tmuxCells int // cells tmux 3.3a draws for Sanitize(in)
	}{
		{"\u2764\ufe0f", 1},                               // ❤️: VS16 after a text-width heart
		{"\u263a\ufe0f", 1},                               // ☺️
		{"\U0001F44D\U0001F3FD", 2},                       // 👍🏽: tmux draws 👍 in 2
		{"\u270c\U0001F3FD", 1},                           // ✌🏽: tmux draws ✌ in 1
		{"\U0001F44B\U0001F3FF!", 3},                      // 👋🏿!
		{"\U0001F44D", 2},                                 // 👍
		{"\U0001F468\u200d\U0001F469\u200d\U0001F467", 2}, // 👨‍👩‍👧
		{"\U0001F1EB\U0001F1F7", 2},                       // 🇫🇷
		{"\u4e2d", 2},                                     // 中
		{"a\u200db", 10},                                  // a<U+200D>b
		{"a\u200d\u2026", 10},                             // tmux merges … into a's cell: 1 cell raw
		{"\u1160a", 9},                                    // tmux draws the filler in 0 cells, Width 1
		{"\u3164a", 9},
		{"\U000E0041a", 10}, // a tag: 0 cells to Width, 1 to wcwidth
	} {
		got := Sanitize(c.in)
		if w := Width(got); w != c.tmuxCells {
			t.Errorf("Width(Sanitize(%q)) = %d (%q), tmux draws %d cells", c.in, w, got, c.tmuxCells)
		}
	}
}

// Sanitize stays idempotent around what it leaves out: a selector or a
// modifier after a character it rewrote is judged by what it wrote.
func TestSanitizeIdempotentAroundEmojiParts(t *testing.T) {
	for _, in := range []string{"\x01\ufe0f", "\u009b\ufe0f", "\xff\ufe0f", "\x01\U0001F3FD", "\r\n\U0001F3FD", "\r\U0001F3FD", "\ufe0f", "中\ufe0f"} {
		once := Sanitize(in)
		if twice := Sanitize(once); twice != once {
			t.Errorf("Sanitize(%q) = %q, again %q", in, once, twice)
		}
	}
}
