package main

import (
	"os"
	"strings"
	"testing"
)

// bench's sizes are checked before anything is written, and the error
// names bench, not seed.
func TestBenchSizesAreUsageErrors(t *testing.T) {
	for _, c := range []struct {
		messages, want string
	}{
		{"-1", "bench: --messages and --batch must be at least 1"},
		{"1000001", "bench: --messages is at most 1000000"},
	} {
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		r := empty(t).chatlens(t, "bench", "--messages", c.messages)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("bench --messages %s: exit %d, stderr %q; want 2 and %q", c.messages, r.code, r.stderr, c.want)
		}
		oneErrorLine(t, r.stderr)
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("bench --messages %s wrote scratch files: %v", c.messages, left)
		}
	}
}

// A Redis URL with an unclosed IPv6 bracket is a usage error, not an
// address rewritten into another host.
func TestRedisAddressMissingBracketIsRefused(t *testing.T) {
	s := seeded(t)
	r := s.chatlens(t, "conversations", "--as", "alice", "--redis", "redis://[::1:6379")
	if r.code != 2 || !strings.Contains(r.stderr, `"[::1:6379"`) || r.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and the host named", r.code, r.stdout, r.stderr)
	}
	oneErrorLine(t, r.stderr)
}
