package testkit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
)

// AuditEntries decodes an audit log, one JSON line per entry; blank lines
// are skipped and a line that is not an entry fails the test.
func AuditEntries(t testing.TB, log []byte) []store.AuditEntry {
	t.Helper()
	var out []store.AuditEntry
	for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
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
