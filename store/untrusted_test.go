package store

import (
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
