package store

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
)

// AuditTrailMax bounds the entries AuditTrail returns: the newest ones.
const AuditTrailMax = 500

// OpenAuditLog opens the audit log at path for appending (created 0600) and
// keeps the path, so AuditTrail can read back what was written.
func OpenAuditLog(path string) (*AuditLog, *os.File, error) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, nil, err
	}
	a := NewAuditLog(f)
	a.path = path
	return a, f, nil
}

// AuditTrail reads back the audit log's lines of this store's operator,
// newest first, at most AuditTrailMax of them: what the operator wrote and
// was refused, this run and before. A log with no file to read (none
// configured, or a writer only) has nothing to show: no entries, no error.
// A line that is not an entry (a torn last line) is skipped.
func (s *lookupReads) AuditTrail() ([]AuditEntry, error) {
	if s.audit == nil || s.audit.path == "" {
		return nil, nil
	}
	f, err := os.Open(s.audit.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAuditTrail(f, s.operator)
}

func readAuditTrail(r io.Reader, operator string) ([]AuditEntry, error) {
	var kept []AuditEntry // oldest first, the last AuditTrailMax
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20) // an error message can be long
	for sc.Scan() {
		var e AuditEntry
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Operator != operator {
			continue
		}
		kept = append(kept, e)
		if len(kept) > 2*AuditTrailMax {
			kept = append(kept[:0], kept[len(kept)-AuditTrailMax:]...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	kept = kept[max(0, len(kept)-AuditTrailMax):]
	out := make([]AuditEntry, len(kept))
	for i, e := range kept {
		out[len(kept)-1-i] = e
	}
	return out, nil
}
