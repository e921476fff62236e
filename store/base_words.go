package store

import (
	"fmt"
	"slices"
	"strings"
)

// The words reads and writes share: the actions, the request that names a
// write, runs of seqs, and what a write refuses, notes and did.

// Write actions, named as in the audit log.
const (
	ActionRevoke = "revoke"
	ActionDelete = "delete"
	ActionRead   = "read"
)

// WriteRequest is a write as an operator asks for it, from the scripted
// commands or the UI: one path, so both refuse and record the same way.
type WriteRequest struct {
	Action string // ActionRevoke, ActionDelete or ActionRead
	Cid    string
	By     string // the user acting
	Seqs   []int64
	// Admin: the operator acts as an app admin, as OpenIM lets its IM
	// admins do; audited as such, and a revoke records role 0.
	Admin bool
	// UpTo, for a mark read with no Seqs: every seq after the user's read
	// seq up to this one, read from the store as the plan is made (the
	// UI's "mark read up to here").
	UpTo int64
}

// seqRange is the n seqs from first.
func seqRange(first int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = first + int64(i)
	}
	return out
}

// without is seqs less those in drop.
func without(seqs, drop []int64) []int64 {
	var out []int64
	for _, s := range seqs {
		if !slices.Contains(drop, s) {
			out = append(out, s)
		}
	}
	return out
}

// RefusedSeqs are the seqs a write may not touch for one reason.
// StorageOnly: chatlens's own refusal of a write in storage; the server
// accepts those seqs.
type RefusedSeqs struct {
	Reason      string
	Seqs        []int64
	StorageOnly bool
}

// TargetError says which seqs of a scripted write the server would refuse,
// and why; nothing was written.
type TargetError struct {
	Action, Cid, UserID string
	Refused             []RefusedSeqs
}

func (e *TargetError) Error() string {
	return fmt.Sprintf("%s in %s by %s refused, nothing written: %s", e.Action, e.Cid, e.UserID, e.reasons())
}

// reasons are the refusals, "seq 7: why; seq 9: why".
func (e *TargetError) reasons() string {
	parts := make([]string, len(e.Refused))
	for i, r := range e.Refused {
		parts[i] = "seq " + FormatSeqs(r.Seqs) + ": " + r.Reason
	}
	return strings.Join(parts, "; ")
}

func (e *TargetError) add(reason string, seq int64) { e.addRefusal(reason, seq, false) }

// serverRefusals is e without chatlens's own refusals of a write in
// storage (StorageOnly): what the server refuses; nil when that is nothing.
func (e *TargetError) serverRefusals() error {
	out := &TargetError{Action: e.Action, Cid: e.Cid, UserID: e.UserID}
	for _, r := range e.Refused {
		if !r.StorageOnly {
			out.Refused = append(out.Refused, r)
		}
	}
	if len(out.Refused) == 0 {
		return nil
	}
	return out
}

// addStorage adds a refusal of chatlens's own, for a write in storage: the
// server accepts those seqs.
func (e *TargetError) addStorage(reason string, seq int64) { e.addRefusal(reason, seq, true) }

func (e *TargetError) addRefusal(reason string, seq int64, storageOnly bool) {
	for i := range e.Refused {
		if e.Refused[i].Reason == reason {
			e.Refused[i].Seqs = append(e.Refused[i].Seqs, seq)
			return
		}
	}
	e.Refused = append(e.Refused, RefusedSeqs{Reason: reason, Seqs: []int64{seq}, StorageOnly: storageOnly})
}

// SeqNote says what a write did, or will do, to some seqs that are not
// plain messages in the user's window, the server writing them all the
// same: "seq 28: no message there (physically deleted): ...".
type SeqNote struct {
	Seqs []int64
	Note string
}

func (n SeqNote) String() string { return "seq " + FormatSeqs(n.Seqs) + ": " + n.Note }

// WriteResult tells what a write did beyond succeeding.
type WriteResult struct {
	Seqs []int64 // the seqs the write was asked to touch
	// Applied are the seqs whose slots were changed before a failure
	// stopped the write part way (all of Seqs when it succeeded).
	Applied []int64
	// Unknown are the seqs of a round trip whose reply was lost: the
	// server may or may not have written them.
	Unknown []int64
	// StaleCache names the cache keys that could not be invalidated: the
	// backend change stands, but readers of the cache may see the old slot
	// until the keys expire.
	StaleCache error
}
