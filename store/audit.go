package store

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// AuditEntry is one line of the audit log: every write, done or failed.
type AuditEntry struct {
	Time         time.Time `json:"time"`
	Operator     string    `json:"operator"`
	Action       string    `json:"action"`
	Conversation string    `json:"conversation"`
	Seqs         []int64   `json:"seqs"`
	As           string    `json:"as,omitempty"`      // the user the action was taken for
	Admin        bool      `json:"admin,omitempty"`   // the operator acted as an app admin (--admin)
	Result       string    `json:"result"`            // "ok", "failed", "partial", "refused", "ok-cache-stale"
	Applied      []int64   `json:"applied,omitempty"` // with "partial": the seqs that were changed
	Error        string    `json:"error,omitempty"`
}

// AuditLog appends JSON lines to a writer; safe for concurrent use.
type AuditLog struct {
	mu sync.Mutex
	w  io.Writer
}

// NewAuditLog writes entries to w (an append-only file in practice).
func NewAuditLog(w io.Writer) *AuditLog { return &AuditLog{w: w} }

// Append writes one entry. A nil AuditLog discards.
func (a *AuditLog) Append(e AuditEntry) error {
	if a == nil || a.w == nil {
		return nil
	}
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	_, err = a.w.Write(append(line, '\n'))
	return err
}
