package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestReadersAreCountedOnlyWhereTheSeqIsInTheirWindow: in the demo's
// sg_phoenix, 김민아 and Priya Nair joined later (their seq_user.min_seq is
// past seq 16): dump --explain does not count them among who read seq 16,
// and lists them apart with where their window starts.
func TestReadersAreCountedOnlyWhereTheSeqIsInTheirWindow(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	out := s.mustRun(t, "dump", "--conversation", "sg_phoenix", "--as", "alice", "--from", "16", "--to", "16", "--explain")
	read := regexp.MustCompile(`read by \d+ of \d+[^;]*`).FindString(out)
	if read == "" || strings.Contains(read, "김민아") || strings.Contains(read, "Priya Nair") {
		t.Errorf("seq 16 counts as readers members whose window starts after it: %q\n%s", read, out)
	}
	if !regexp.MustCompile(`outside the window of 2: 김민아 \(starts at seq \d+\), Priya Nair \(starts at seq 21\)`).MatchString(out) {
		t.Errorf("the members whose window starts after seq 16 are not listed apart with why:\n%s", out)
	}
	// Seq 30 is in both windows: they are counted.
	if out := s.mustRun(t, "dump", "--conversation", "sg_phoenix", "--as", "alice", "--from", "30", "--to", "30", "--explain"); strings.Contains(out, "outside the window") ||
		!strings.Contains(out, "김민아") || !strings.Contains(out, "Priya Nair") {
		t.Errorf("seq 30, in every window:\n%s", out)
	}
}
