package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
)

// TestReadOnlySeedOrImportOfANewFileIsRefused: under --read-only, seed and
// import of a store that does not exist yet are refused as writes are:
// the error says read-only (not "no store at …"), the audit log says
// refused (not failed), and no file is created.
func TestReadOnlySeedOrImportOfANewFileIsRefused(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		append([]string{"seed", "--read-only"}, small...),
		{"import", "-", "--read-only", "--collection", "user"},
	} {
		t.Run(args[0], func(t *testing.T) {
			s := empty(t)
			r := s.chatlensIn(t, `{"user_id":"u1"}`+"\n", args...)
			if r.code != 1 || !strings.Contains(r.stderr, "read-only") || strings.Contains(r.stderr, "no store at") {
				t.Errorf("exit %d, stderr %q; want 1 and a read-only refusal", r.code, r.stderr)
			}
			entries := auditEntries(t, s)
			if len(entries) != 1 || entries[0].Result != store.ResultRefused || !strings.Contains(entries[0].Error, "read-only") {
				t.Errorf("audit log %+v; want one line, refused, saying read-only", entries)
			}
			if _, err := os.Stat(s.data); !os.IsNotExist(err) {
				t.Errorf("a store file was created: %v", err)
			}
		})
	}
}
