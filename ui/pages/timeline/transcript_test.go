package timeline

import (
	"strings"
	"testing"
)

// TestTranscriptNameOfLongIDs: a transcript of a 300-character
// conversation ID (or viewer) gets a file name under the 255 bytes a file
// system allows, and two long IDs alike in their first 300 characters get
// different names; short IDs keep their names as they were.
func TestTranscriptNameOfLongIDs(t *testing.T) {
	long := "sg_" + strings.Repeat("g", 300)
	a := transcriptName(long+"a", strings.Repeat("u", 300), strings.Repeat("v", 300), 1, 1<<62)
	b := transcriptName(long+"b", strings.Repeat("u", 300), strings.Repeat("v", 300), 1, 1<<62)
	if len(a)+len("-999.html") > 255 || a == b {
		t.Errorf("names of %d and %d bytes, alike: %v\n%s\n%s", len(a), len(b), a == b, a, b)
	}
	if got := transcriptName("si_alice_bob", "alice", "bob", 4, 8); got != "chatlens-si_alice_bob-alice-vs-bob-4-8" {
		t.Errorf("short IDs named %s", got)
	}
}
