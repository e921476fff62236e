package bucket

import (
	"fmt"
	"strings"
)

// Window is what one user may see of one conversation: a value that
// store.Windows and store.WindowAt compute, read by projection.
type Window struct {
	Cid     string
	MinSeq  int64 // first visible seq (at least 1)
	MaxSeq  int64 // last visible seq; 0 when the conversation is empty
	ReadSeq int64 // the user's read position
	// Last is the newest bucket when reading the window required it (no
	// cache knew the current max seq); nil otherwise. Reuse it, do not re-read.
	Last *Bucket
	// EndSeq is where the conversation's messages end for everyone, before
	// this user's cap: what store.WindowAt needs to compute another user's window
	// without reading a bucket.
	EndSeq int64
	// Where MinSeq comes from: the conversation's seq.min_seq (history
	// cleared for everyone, or expired) and the user's seq_user.min_seq
	// (the user cleared their own history).
	SeqMinSeq, UserMinSeq int64
	// CapSeq is the user's own upper bound when it ends the window early
	// (conversation.max_seq, or seq_user.max_seq in a notification
	// conversation), CapField names it; 0 and "" when none applies.
	CapSeq   int64
	CapField string
	// StoredNewest is the stored bucket store.Windows read to check a max
	// seq from the cache, kept so store.NewestBuckets lays the cache over it
	// instead of reading it again; nil otherwise. Only the store sets it.
	StoredNewest *Bucket
	// Newest is the newest message in the window: the last filled slot at
	// or below MaxSeq of the bucket that holds it (a malformed slot counts;
	// nil when none: a window ending in a hole, an empty conversation).
	// What a conversation list shows and sorts by.
	Newest *StoredSlot
	// NoConversationDoc: the user owns no conversation document for Cid
	// while the store keeps them, a notification conversation included.
	// OpenIM refuses such a user's mark read (as_read.go MarkMsgsAsRead:
	// GetConversation fails), n_* conversations too, which it keeps none for.
	// The seqs stay as they are: a revoke still looks at them.
	NoConversationDoc bool
	// UserMaxSeq is seq_user.max_seq (0: none). The pull caps only an n_*
	// conversation by it, but a revoke looks its message up with
	// GetMsgBySeqs, which caps every conversation by it.
	UserMaxSeq int64
	// UserMinCached: UserMinSeq is the server's Redis key SEQ_USER_MIN,
	// which it reads before the seq_user document.
	UserMinCached bool
	// UnreadableMinKey is the Redis key SEQ_USER_MIN:<cid>:<uid> when it
	// answered the server's read with an error (a string, not the hash
	// rockscache keeps: WRONGTYPE), UnreadableMinErr that error; the server
	// then skips the conversation in this user's pull (controller/msg.go
	// GetMsgBySeqsRange and GetMsgBySeqs return GetUserMinSeq's error).
	UnreadableMinKey, UnreadableMinErr string
	// SeqUserDocs is how many seq_user documents the user has for Cid.
	// OpenIM's index on the pair is not unique; with more than one,
	// SeqUserNote says which the server reads each value from.
	SeqUserDocs int
	SeqUserNote string
}

// Unread is what the user's app shows: max seq minus read seq, never below
// 0, whatever the window's start (openim-sdk-core
// internal/conversation_msg/sync.go; the server's
// GetConversationsHasReadAndMaxSeq returns the two and no min seq).
func (w Window) Unread() int64 { return max(0, w.MaxSeq-w.ReadSeq) }

// LatestSendTime is the send time of the newest message in the window
// (unix ms), 0 when there is none: what a user's app sorts its list by.
func (w Window) LatestSendTime() int64 {
	if w.Newest == nil || w.Newest.Slot == nil || w.Newest.Slot.Msg == nil {
		return 0
	}
	return w.Newest.Slot.Msg.SendTime
}

// Cleared reports a window that starts after seq 1: the user cannot see
// the conversation's history before MinSeq.
func (w Window) Cleared() bool { return w.MinSeq > 1 }

// StartReason says why the window starts at MinSeq, naming the stored
// field that sets it; "" when it starts at seq 1.
func (w Window) StartReason() string {
	switch {
	case !w.Cleared():
		return ""
	case w.UserMinSeq >= w.SeqMinSeq:
		// OpenIM sets it when a user joins a group late, as when they
		// clear their history: the store cannot tell which.
		field := "seq_user.min_seq"
		if w.UserMinCached {
			field = "SEQ_USER_MIN (Redis, read before seq_user.min_seq)"
		}
		return fmt.Sprintf("%s = %d: the user cleared their own history, or joined later (seq.min_seq = %d)", field, w.UserMinSeq, w.SeqMinSeq)
	default:
		return fmt.Sprintf("seq.min_seq = %d: cleared for everyone, or expired (seq_user.min_seq = %d)", w.SeqMinSeq, w.UserMinSeq)
	}
}

// PulledNothing: OpenIM's pull skips the conversation for this user, so
// their devices are given nothing of it (a non-member, the app admin): no
// conversation document, and not a notification conversation, which the
// pull reads without one; or a SEQ_USER_MIN key the server cannot read
// (internal/rpc/msg/sync_msg.go PullMessageBySeqs logs the error and
// continues). UnpulledReason says which.
func (w Window) PulledNothing() bool {
	return w.UnreadableMinKey != "" || w.NoConversationDoc && !IsNotificationConversation(w.Cid)
}

// UnpulledReason says, in words, why OpenIM pulls uid nothing of the
// window's conversation: every screen and command that says so uses it.
func (w Window) UnpulledReason(uid string) string {
	if w.UnreadableMinKey != "" {
		return fmt.Sprintf("Redis key %s is not the hash the server reads (%s): its pull skips this conversation (sync_msg.go PullMessageBySeqs)",
			w.UnreadableMinKey, w.UnreadableMinErr)
	}
	return uid + " owns no conversation document for it, so OpenIM's pull skips it (not a member, the app admin, or never added)"
}

// IsNotificationConversation reports an "n_" conversation, the one OpenIM
// pulls with GetMsgBySeqs and caps by seq_user.max_seq
// (msgprocessor.IsNotification; "sn_" is not one).
func IsNotificationConversation(cid string) bool { return strings.HasPrefix(cid, "n_") }
