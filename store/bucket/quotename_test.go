package bucket

import (
	"strings"
	"testing"
)

// TestQuoteNameCutsAHostileName: a name of 100 kB is quoted as its first
// MaxQuotedName bytes and its length, on a rune boundary; a short one
// whole; escapes show, never sent.
func TestQuoteNameCutsAHostileName(t *testing.T) {
	if got := QuoteName("revoke"); got != `"revoke"` {
		t.Errorf("short name: %s", got)
	}
	if got := QuoteName("a\x1b[2Jb"); got != `"a\x1b[2Jb"` {
		t.Errorf("escape: %s", got)
	}
	long := strings.Repeat("é", 50_000) // 100,000 bytes, two a rune
	got := QuoteName(long + "x")
	if len(got) > MaxQuotedName+40 || !strings.HasSuffix(got, `… (100001 bytes)`) || strings.Contains(got, "\uFFFD") {
		t.Errorf("long name quoted as %d bytes: %.200s", len(got), got)
	}
}
