package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestEveryOutputNamesAMalformedBucket: a bucket whose msgs is a string,
// null or an object (stored by import --mode upsert) holds 100 seqs no one
// can read; dump in text, markdown and json, and export, name it as the
// UI does ("! malformed bucket si_alice_bob:1: msgs is string, not an
// array"), never as 100 seqs with no message.
func TestEveryOutputNamesAMalformedBucket(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ msgs, why string }{
		{`"junk"`, "msgs is string, not an array"},
		{`null`, "msgs is null, not an array"},
		{`{"0":{}}`, "msgs is embedded document, not an array"},
	} {
		t.Run(c.why, func(t *testing.T) {
			s := seeded(t)
			s.mustRunIn(t, `{"doc_id":"si_alice_bob:1","msgs":`+c.msgs+"}\n", "import", "-", "--mode", "upsert")
			line := "! malformed bucket si_alice_bob:1: " + c.why
			dump := func(format string) string {
				return s.mustRun(t, "dump", "--conversation", "si_alice_bob", "--as", "alice", "--from", "99", "--format", format)
			}
			// The small demo's si_alice_bob ends in bucket 1: its seqs 101
			// to the last are the broken bucket's.
			text := dump("text")
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(line) + `\n +101 +· seqs 101–\d+: no message \(\d+\)$`).MatchString(text) {
				t.Errorf("text dump does not name the bucket above its seqs:\n%s", text)
			}
			if md := strings.ReplaceAll(dump("markdown"), `\_`, "_"); !regexp.MustCompile(`\| 101-\d+ \|  \|  \| ` +
				regexp.QuoteMeta(line) + ` · no message \(\d+\) \|`).MatchString(md) {
				t.Errorf("markdown dump does not name the bucket:\n%s", md)
			}
			json := dump("json")
			if n, seqs := strings.Count(json, `"malformed":"malformed bucket si_alice_bob:1: `+c.why+`"`), strings.Count(json, `"docID":"si_alice_bob:1"`); n != seqs || n == 0 {
				t.Errorf("json dump names the bucket on %d of its %d seqs", n, seqs)
			}
			if strings.Contains(json, `"docID":"si_alice_bob:0","index":98,"malformed"`) {
				t.Errorf("json dump names a sound bucket:\n%s", json)
			}
			r := s.chatlens(t, "export", "--conversation", "si_alice_bob")
			// Export names it as import does: the document's line and key.
			if r.code != 0 || !strings.Contains(r.stderr, `doc_id "si_alice_bob:1"`) || !strings.Contains(r.stderr, c.why) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("export: exit %d, stderr %q; want the bucket named once", r.code, r.stderr)
			}
		})
	}
}
