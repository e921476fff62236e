package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
)

// A first run killed while seeding leaves an unfinished demo; data imported
// into that file afterwards is the user's: no later command, read-only or
// not, empties the file to seed the demo again.
func TestImportIntoAnInterruptedFirstRunIsKept(t *testing.T) {
	s := fresh(t)
	if r := interruptedFirstRun(t, s, "conversations", "--as", "alice"); r.code == 0 {
		t.Fatalf("first run cancelled mid-seed: exit 0, stderr %q", r.stderr)
	}
	mine := `{"doc_id":"si_x_y:0","msgs":[]}` + "\n"
	if r := s.importText(t, mine); r.code != 0 {
		t.Fatalf("import: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, args := range [][]string{
		{"export", "--read-only"}, {"export"}, {"conversations", "--as", "alice"}, {"check"},
	} {
		r := s.chatlens(t, args...)
		if strings.Contains(r.stderr, "seed") {
			t.Errorf("%s: %q; the imported store was seeded again", strings.Join(args, " "), r.stderr)
		}
		if out := s.mustRun(t, "export", "--read-only"); !strings.Contains(out, `"si_x_y:0"`) {
			t.Fatalf("after %s the imported document is gone", strings.Join(args, " "))
		}
	}
	if progress, _ := demoProgress(t, s); progress != demo.Adopted {
		t.Errorf("demo progress %d, want adopted (%d)", progress, demo.Adopted)
	}
}

// A store holding documents of other collections but no messages is not
// new: the demo is never written into it, with or without --read-only.
func TestFirstRunNeverSeedsAStoreWithDocuments(t *testing.T) {
	s := fresh(t)
	seq := `{"conversation_id":"si_alice_bob","max_seq":{"$numberLong":"7"},"min_seq":{"$numberLong":"0"}}` + "\n"
	if r := s.importText(t, seq, "--collection", bucket.CollSeq); r.code != 0 {
		t.Fatalf("import: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, args := range [][]string{{"conversations", "--as", "alice", "--read-only"}, {"conversations", "--as", "alice"}} {
		if r := s.chatlens(t, args...); strings.Contains(r.stderr, "seed") {
			t.Errorf("%s: %q; the demo was written into a store holding seq documents", strings.Join(args, " "), r.stderr)
		}
	}
	if out := s.mustRun(t, "export", "--collection", bucket.CollMsg); out != "" {
		t.Errorf("msg documents appeared:\n%.300s", out)
	}
	if out := s.mustRun(t, "export", "--collection", bucket.CollSeq); !strings.Contains(out, `"$numberLong":"7"`) {
		t.Errorf("the imported seq document changed: %s", out)
	}
}

// Under --read-only a first run creates nothing, and a --data that names
// no file is an error for every command that does not create a store.
func TestNoStoreIsAnErrorNotANewDemo(t *testing.T) {
	s := fresh(t)
	r := s.chatlens(t, "conversations", "--as", "alice", "--read-only")
	if r.code != 1 || !strings.Contains(r.stderr, "no store at") {
		t.Errorf("--read-only first run: exit %d, stderr %q", r.code, r.stderr)
	}
	oneErrorLine(t, r.stderr)
	if _, err := os.Stat(s.data); !os.IsNotExist(err) {
		t.Errorf("--read-only created %s (%v)", s.data, err)
	}

	typo := empty(t)
	for _, args := range [][]string{
		{"conversations", "--as", "alice"}, {"dump", "--conversation", demo.ShowcaseSingleID, "--as", "alice"},
		{"export"}, {"check"}, {"revoke", "--conversation", demo.ShowcaseSingleID, "--seq", "3", "--by", "alice"},
	} {
		r := typo.chatlens(t, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "no store at "+typo.data) {
			t.Errorf("%s --data MISSING: exit %d, stderr %q", args[0], r.code, r.stderr)
		}
		oneErrorLine(t, r.stderr)
	}
	// (A test process without a terminal is told first that the UI needs one.)
	var out, errs bytes.Buffer
	code := runArgs([]string{"--data", typo.data}, &out, &errs)
	if !(code == 1 && strings.Contains(errs.String(), "no store at") || code == 2 && strings.Contains(errs.String(), "the UI needs a terminal")) {
		t.Errorf("UI --data MISSING: exit %d, stderr %q", code, errs.String())
	}
	if _, err := os.Stat(typo.data); !os.IsNotExist(err) {
		t.Errorf("a read of a missing --data created it (%v)", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(defaultDataPath())); len(entries) != 0 {
		t.Errorf("a --data typo seeded the default store: %v", entries)
	}
}

// A 0-byte --data file is named for what it is.
func TestEmptyFileIsNotAStore(t *testing.T) {
	t.Parallel()
	s := empty(t)
	if err := os.WriteFile(s.data, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"conversations", "--as", "alice"}, {"export", "--read-only"}} {
		r := s.chatlens(t, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "empty file (0 bytes), not a chatlens store") {
			t.Errorf("%s: exit %d, stderr %q", args[0], r.code, r.stderr)
		}
		oneErrorLine(t, r.stderr)
	}
	if fi, err := os.Stat(s.data); err != nil || fi.Size() != 0 {
		t.Errorf("the empty file was written to")
	}
}

// seed asked for by name still refuses a store holding documents of any
// collection, not only messages: the demo's seq and conversation documents
// would overwrite the user's with the same keys.
func TestSeedRefusesAStoreHoldingAnyDocuments(t *testing.T) {
	t.Parallel()
	s := empty(t)
	seq := `{"conversation_id":"si_alice_bob","max_seq":{"$numberLong":"7"},"min_seq":{"$numberLong":"0"}}` + "\n"
	if r := s.importText(t, seq, "--collection", bucket.CollSeq); r.code != 0 {
		t.Fatalf("import: exit %d, stderr %q", r.code, r.stderr)
	}
	r := s.chatlens(t, "seed")
	if r.code != 1 || !strings.Contains(r.stderr, "seq documents") || !strings.Contains(r.stderr, "--force") {
		t.Errorf("seed into a store with seq documents: exit %d, stderr %q", r.code, r.stderr)
	}
	if out := s.mustRun(t, "export", "--collection", bucket.CollSeq); strings.Count(out, "\n") != 1 || !strings.Contains(out, `"$numberLong":"7"`) {
		t.Errorf("the seq collection changed:\n%.300s", out)
	}
}

// --read-only never seeds, not even an unfinished demo: it says so and
// reads the file as it is.
func TestReadOnlyLeavesAnUnfinishedDemoAsItIs(t *testing.T) {
	s := fresh(t)
	if r := interruptedFirstRun(t, s, "conversations", "--as", "alice"); r.code == 0 {
		t.Fatalf("first run cancelled mid-seed: exit 0, stderr %q", r.stderr)
	}
	before, err := os.ReadFile(s.data)
	if err != nil {
		t.Fatal(err)
	}
	r := s.chatlens(t, "conversations", "--as", "alice", "--read-only")
	if r.code != 0 || strings.Contains(r.stderr, "seeded") || !strings.Contains(r.stderr, "never finished") {
		t.Errorf("--read-only on an unfinished demo: exit %d, stderr %q", r.code, r.stderr)
	}
	if after, _ := os.ReadFile(s.data); !bytes.Equal(after, before) {
		t.Error("--read-only changed the store file")
	}
}
