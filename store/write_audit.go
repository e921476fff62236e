package store

import (
	"fmt"
	"time"
)

// auditRefusal logs a write that was refused, or whose check failed,
// before anything was written: action by as on seqs of cid, and why. It
// returns reason; if the log itself fails, the error says so too. A
// refusal (a *TargetError, an *UnknownUserError, a NoSuchError,
// ErrReadOnly) is logged "refused", any other failure of the check
// "failed".
func (s *writePath) auditRefusal(action, cid, as string, seqs []int64, admin bool, reason error) error {
	if reason == nil {
		return nil
	}
	entry := AuditEntry{Time: time.Now().UTC(), Operator: s.operator, Action: action,
		Conversation: cid, Seqs: seqs, As: as, Admin: admin, Result: ResultFailed, Error: reason.Error()}
	if isRefusal(reason) {
		entry.Result = ResultRefused
	}
	if err := s.audit.Append(entry); err != nil {
		return fmt.Errorf("%w (and the audit log failed: %v)", reason, err)
	}
	return reason
}
