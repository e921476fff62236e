package bucket

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestEscapeUntrustedShowsWhatATerminalWouldAct(t *testing.T) {
	cases := map[string]string{
		"plain text 王芳":     "plain text 王芳",
		"\x1b]0;title\x07":  `\x1b]0;title\a`,
		"a\u202eb":          `a\u202eb`,
		"bad \xff byte":     `bad \xff byte`,
		"tab\tand\nnewline": `tab\tand\nnewline`,
	}
	for in, want := range cases {
		if got := EscapeUntrusted(in, 300); got != want {
			t.Errorf("EscapeUntrusted(%q) = %q, want %q", in, got, want)
		}
	}
	long := EscapeUntrusted(strings.Repeat("é", 400), 300)
	if !strings.HasSuffix(long, "…") || len(long) > 300+len("é")+len("…") {
		t.Errorf("long text not cut near 300 bytes: %d bytes", len(long))
	}
}

// TestOnePolicyForEveryOutput: every character UnsafeRune lists is written
// escaped by EscapeUntrusted (reports, errors) and by EscapeJSONLine (dump
// --format json, export), where JSON readers still read the same text.
func TestOnePolicyForEveryOutput(t *testing.T) {
	var unsafe []rune
	for r := rune(0x80); r <= 0xe00ff; r++ {
		if UnsafeRune(r) {
			unsafe = append(unsafe, r)
		}
	}
	for _, r := range []rune{0x85, 0x9b, 0xad, 0x61c, 0x200b, 0x200e, 0x200f, 0x2028, 0x2029, 0x202e, 0x2060, 0x2066, 0xfeff,
		0xe0001, 0xe0020, 0xe0049, 0xe007f, 0x3164, 0x115f, 0x1160, 0xffa0, 0x34f, 0x17b4, 0x17b5} {
		if !UnsafeRune(r) {
			t.Errorf("%U is not in the policy", r)
		}
	}
	for _, r := range []rune{'a', 'é', '中', 0x200d, 0x200c, 0xfe0f, 0x1f44b} {
		if UnsafeRune(r) {
			t.Errorf("%U, which text needs, is in the policy", r)
		}
	}
	for _, r := range unsafe {
		s := "a" + string(r) + "b"
		if strings.ContainsRune(EscapeUntrusted(s, 100), r) {
			t.Errorf("EscapeUntrusted writes %U raw", r)
		}
		line, _ := json.Marshal(map[string]string{s: s})
		esc := EscapeJSONLine(line)
		var back map[string]string
		if bytes.ContainsRune(esc, r) || json.Unmarshal(esc, &back) != nil || back[s] != s {
			t.Errorf("EscapeJSONLine of %U: %q", r, esc)
		}
	}
}
