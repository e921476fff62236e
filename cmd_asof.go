package main

import (
	"fmt"
	"time"

	"github.com/chatlens/chatlens/store"
)

// atForms names the forms --at takes, for its help and its refusal.
const atForms = store.MomentForms

// parseAt reads a --at value (store.ParseMoment), typed forms in loc.
func parseAt(s string, loc *time.Location) (time.Time, error) {
	if t, ok := store.ParseMoment(s, loc); ok {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--at %q is not a moment: want %s", s, atForms)
}

// auditPath is the audit log's file: --audit-log, else the default.
func (s *session) auditPath() string {
	if s.conn.AuditLog != "" {
		return s.conn.AuditLog
	}
	return defaultAuditPath()
}
