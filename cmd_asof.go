package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store"
)

// --at names a moment: RFC 3339 with fractional seconds and a zone (what
// the server's logs and a ticket's timestamps say), Unix milliseconds (what
// the store and the pulls hold), or what the UI's `:` takes, in the zone
// times are shown in (store.ParseTypedTime: its first instant).

// atForms names the forms --at takes, for its help and its refusal.
const atForms = "RFC 3339 (2024-06-15T14:30:05.250+02:00), Unix milliseconds, or " + store.TypedTimeForms

// parseAt reads a --at value, typed forms in loc.
func parseAt(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil && ms >= 0 {
		return time.UnixMilli(ms), nil
	}
	if t, _, ok := store.ParseTypedTime(s, loc); ok {
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
