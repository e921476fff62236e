package bucket

import "go.mongodb.org/mongo-driver/v2/bson"

// The words store and projection share about a conversation's past: what
// the store keeps of when each change happened (a slot holds its state
// now and, of its changes, only a revoke's time), gathered by
// store.History and read back to a moment by projection.AsOf.

// Evidence kinds.
const (
	EvidenceDelete = "delete" // User deleted Seqs for themselves
	EvidenceRead   = "read"   // User marked Seqs read, their read seq then at least ReadSeq
	// EvidenceErase: User deleted Seqs for everyone at At, physically
	// (delete.go DeleteMsgs with IsSyncOther: DeleteMsgsPhysicalBySeqs,
	// then a 2102 into the chat's notification conversation, which is
	// stored). DeleteMsgPhysicalBySeq, the admin's, sends nothing.
	EvidenceErase = "erase"
)

// Evidence is one change with the time some record gives it.
type Evidence struct {
	Kind   string
	At     int64  // unix ms
	Source string // where it was found: "2102 in n_u3_u3 seq 4", "audit log"
	User   string
	Seqs   []int64
	// ReadSeq: a read mark's read seq after it is at least this (the
	// larger of MarkAsReadTips.hasReadSeq and its seqs: the transfer's
	// doSetReadSeq, online_history_msg_handler.go).
	ReadSeq int64
}

// History is what the store keeps of a viewer's past in one conversation.
type History struct {
	Viewer, Cid string
	// Owned: the viewer owns the conversation document now (for an n_*
	// conversation, that of a chat it is the notification conversation
	// of, or their own n_<user>_<user>).
	Owned bool
	// Created is when the viewer got the conversation (unix ms,
	// conversation.create_time; for an n_* conversation, its chat's; 0 for
	// their own n_<user>_<user>, theirs always). -1: not stored.
	Created int64
	// CreatedFrom names the field Created comes from.
	CreatedFrom string
	// Evidence is every dated delete and read mark of Cid found, in no
	// particular order.
	Evidence []Evidence
}

// lenientMillis is raw[key] as unix milliseconds (a BSON date or a
// number), 0 when absent or unreadable.
func lenientMillis(raw bson.Raw, key string) int64 {
	t := LenientTime(raw, key)
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}
