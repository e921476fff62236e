package store

import "slices"

// The words reads and writes share: the actions, the request that names a
// write, and runs of seqs.

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
