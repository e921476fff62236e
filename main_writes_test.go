package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/demo"
)

// A seq list ending at the top of int64 once looped forever: it is bad
// usage, refused before the store is opened.
func TestSeqPastTheLastBucketIsAUsageError(t *testing.T) {
	s := seeded(t)
	for _, seq := range []string{"9223372036854775807", "9223372036854775000-9223372036854775807"} {
		r := s.chatlens(t, "revoke", "--conversation", demo.ShowcaseSingleID, "--seq", seq, "--by", "alice")
		if r.code != 2 {
			t.Errorf("--seq %s: exit %d, want 2 (%s)", seq, r.code, r.stderr)
		}
		oneErrorLine(t, r.stderr)
	}
}

// The README promises every refusal is in the audit log: a scripted write
// refused by its target check ("no message there", "already revoked")
// leaves a "refused" line naming the seqs and why.
func TestRefusedWritesAreAudited(t *testing.T) {
	s := seeded(t)
	cid := demo.ShowcaseSingleID
	r := s.chatlens(t, "revoke", "--conversation", cid, "--seq", "5000,5001", "--by", "alice")
	if r.code != 1 {
		t.Fatalf("revoke beyond the last message: exit %d, %s", r.code, r.stderr)
	}
	entries := auditEntries(t, s)
	if len(entries) != 1 {
		t.Fatalf("audit log holds %d lines after one refusal, want 1: %+v", len(entries), entries)
	}
	e := entries[0]
	if e.Action != "revoke" || e.Result != "refused" || store.FormatSeqs(e.Seqs) != "5000-5001" || e.As != "alice" ||
		!strings.Contains(e.Error, "beyond the last message") {
		t.Errorf("refusal audited as %+v", e)
	}
}

// auditEntries reads the sandbox's audit log.
func auditEntries(t *testing.T, s sandbox) []store.AuditEntry {
	t.Helper()
	b, err := os.ReadFile(s.audit)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []store.AuditEntry
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var e store.AuditEntry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		out = append(out, e)
	}
	return out
}
