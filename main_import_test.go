package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/demo"
)

// soundBucketLine is an empty bucket of cid as an export writes it: one
// line of canonical Extended JSON that keeps the bucket contract.
func soundBucketLine(t *testing.T, cid string, index int64) string {
	t.Helper()
	line, err := bson.MarshalExtJSON(bucket.NewDoc(bucket.DocID(cid, index)), true, false)
	if err != nil {
		t.Fatal(err)
	}
	return string(line) + "\n"
}

// importText runs import - on s with text as stdin.
func (s sandbox) importText(t *testing.T, text string, args ...string) result {
	t.Helper()
	return s.chatlensIn(t, text, append([]string{"import", "-"}, args...)...)
}

// An export taken before a revoke, imported again, must not undo the
// revoke: insert mode (the default, as mongoimport's) refuses documents
// whose key is stored and says so with exit 1; --mode upsert replaces them
// and counts them as replaced, not imported.
func TestImportRefusesStoredDocumentsUnlessUpsert(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	cid := demo.ShowcaseSingleID
	st := s.stored(t)
	seq := plainSeq(t, st, cid, "bob", 20, false)
	_ = st.Close(context.Background())
	before := s.mustRun(t, "export", "--conversation", cid)
	docs := strings.Count(before, "\n")
	s.mustRun(t, "revoke", "--conversation", cid, "--seq", fmt.Sprint(seq), "--by", "bob")
	revoked := s.mustRun(t, "export", "--conversation", cid)

	r := s.importText(t, before)
	if r.code != 1 || !strings.Contains(r.stderr, "refused") || !strings.Contains(r.stderr, "--mode upsert") ||
		!strings.Contains(r.stderr, "line 1") {
		t.Errorf("re-import of an older export: exit %d, stderr %q; want 1 and the refusal explained", r.code, r.stderr)
	}
	oneErrorLine(t, r.stderr)
	if want := fmt.Sprintf("imported into msg: 0 inserted, 0 replaced, %d refused\n", docs); r.stdout != want {
		t.Errorf("stdout %q, want %q", r.stdout, want)
	}
	if now := s.mustRun(t, "export", "--conversation", cid); now != revoked {
		t.Errorf("an insert-mode import changed the stored documents (the revoke of seq %d was undone)", seq)
	}

	// New documents beside stored ones: the new are inserted, the rest refused.
	extra := soundBucketLine(t, "si_x_y", 0)
	r = s.importText(t, extra+before)
	if r.code != 1 || r.stdout != fmt.Sprintf("imported into msg: 1 inserted, 0 replaced, %d refused\n", docs) ||
		!strings.Contains(r.stderr, "line 2") {
		t.Errorf("mixed import: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	r = s.importText(t, before, "--mode", "upsert")
	if r.code != 0 || r.stdout != fmt.Sprintf("imported into msg: 0 inserted, %d replaced, 0 refused\n", docs) || r.stderr != "" {
		t.Errorf("upsert: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if now := s.mustRun(t, "export", "--conversation", cid); now != before {
		t.Errorf("--mode upsert did not replace the stored documents")
	}
	if r := s.importText(t, extra, "--mode", "merge"); r.code != 2 || !strings.Contains(r.stderr, "--mode") {
		t.Errorf("--mode merge: exit %d, stderr %q; want a usage error", r.code, r.stderr)
	}
}

// A line holds one document: a second one or trailing text rejects the
// line by number instead of being dropped, and "null" is not a document.
func TestImportRejectsALineThatIsNotOneDocument(t *testing.T) {
	t.Parallel()
	good := strings.TrimSuffix(soundBucketLine(t, "si_a_b", 0), "\n")
	for _, c := range []struct{ name, input, want string }{
		{"two documents", good + "\n" + `{"doc_id":"si_a_b:1","msgs":[]}{"doc_id":"si_a_b:2","msgs":[]}` + "\n", "line 2: a second document"},
		{"trailing garbage", good + "\n" + `{"doc_id":"si_a_b:1","msgs":[]} xyz` + "\n", "line 2: unexpected text after the document"},
		{"null", "null\n", "line 1: not a document"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := empty(t)
			r := s.importText(t, c.input)
			if r.code != 1 || !strings.Contains(r.stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", r.code, r.stderr, c.want)
			}
			oneErrorLine(t, r.stderr)
			out := s.mustRun(t, "export", "--collection", bucket.CollMsg)
			if strings.Contains(out, "si_a_b:1") || strings.Contains(out, "si_a_b:2") {
				t.Errorf("a document of the rejected line was stored:\n%s", out)
			}
		})
	}
}

// TestImportNamesWhatBreaksTheBucketContract: import stores what
// mongoimport would, and names each msg document that breaks the bucket
// contract with what is wrong, counts them in the summary and points at
// check, exit 0; the audit line names the file read.
func TestImportNamesWhatBreaksTheBucketContract(t *testing.T) {
	t.Parallel()
	s := empty(t)
	var short bson.D
	if err := bson.UnmarshalExtJSON([]byte(soundBucketLine(t, "si_a_b", 1)), true, &short); err != nil {
		t.Fatal(err)
	}
	for i := range short {
		if short[i].Key == "msgs" {
			short[i].Value = short[i].Value.(bson.A)[:50]
		}
	}
	shortLine, err := bson.MarshalExtJSON(short, true, false)
	if err != nil {
		t.Fatal(err)
	}
	input := filepath.Join(t.TempDir(), "msg.json")
	text := soundBucketLine(t, "si_a_b", 0) + `{"doc_id":"si_a_b:2","msgs":{"0":{}}}` + "\n" + string(shortLine) + "\n" +
		`{"doc_id":"si_a_b","msgs":[]}` + "\n"
	if err := os.WriteFile(input, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	r := s.chatlens(t, "import", input)
	if r.code != 0 || r.stdout != "imported into msg: 4 inserted, 0 replaced, 0 refused, 3 breaking the bucket contract (chatlens check reports them)\n" {
		t.Errorf("import: exit %d, stdout %q; want 0 and the count", r.code, r.stdout)
	}
	for _, want := range []string{
		`line 2, doc_id "si_a_b:2": stored, but it breaks the bucket contract: msgs is embedded document, not an array`,
		`line 3, doc_id "si_a_b:1": stored, but it breaks the bucket contract: msgs has 50 slots, not 100`,
		`line 4, doc_id "si_a_b": stored, but it breaks the bucket contract: doc_id "si_a_b" has no "<conversation>:<index>" form; msgs has 0 slots, not 100`,
	} {
		if !strings.Contains(r.stderr, "chatlens: warning: "+want+"\n") {
			t.Errorf("stderr %q does not name %s", r.stderr, want)
		}
	}
	if strings.Contains(r.stderr, "line 1") {
		t.Errorf("the sound bucket is named: %q", r.stderr)
	}
	entries := auditEntries(t, s)
	if len(entries) != 2 || entries[0].Result != "intent" {
		t.Fatalf("audit log %+v; want the intent and the outcome", entries)
	}
	for _, e := range entries {
		if e.Action != "import msg from "+input {
			t.Errorf("audit line %+v does not name the file read", e)
		}
	}
	if r := s.chatlens(t, "check"); r.code != 1 || strings.Count(r.stdout, `"si_a_b:2"`)+strings.Count(r.stdout, `"si_a_b:1"`) < 2 {
		t.Errorf("check after the import: exit %d, stdout %q; want the documents reported", r.code, r.stdout)
	}
}
