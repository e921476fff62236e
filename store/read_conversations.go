package store

import (
	"context"
	"sort"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// ConversationSummary is one row of a user's conversation list.
type ConversationSummary struct {
	bucket.Conversation
	bucket.Window
	// FromMessages is true when there is no conversation document and the
	// entry was found from doc_id prefixes of the msg collection.
	FromMessages bool
}

// UnreadCounted says whether the conversation has an unread count at all:
// a notification conversation (n_*) has none. OpenIM's
// GetConversationsHasReadAndMaxSeq (internal/rpc/msg/as_read.go), from
// which a client takes its counts, answers only for the user's
// conversation documents, and a notification conversation has none (the
// recorded run: u3 is pulled n_g1, 16 seqs, and the answer holds sg_g1
// alone); the app applies notifications to the chats and never lists
// them. Its max seq minus a read seq is no one's unread count.
func (c ConversationSummary) UnreadCounted() bool {
	return !bucket.IsNotificationConversation(c.ConversationID)
}

// Unread is the count the user's app shows: max seq - read seq, never
// below 0 (bucket.Window.Unread); 0 where there is none (UnreadCounted).
func (c ConversationSummary) Unread() int64 {
	if !c.UnreadCounted() {
		return 0
	}
	return c.Window.Unread()
}

// ListOptions say how a conversation list reads its rows.
type ListOptions struct {
	// WholeNewest: a list of at most this many conversations reads their
	// newest buckets whole (Window.Last), for a timeline opened from a row
	// to reuse; a longer one reads of each only its last slots, for its
	// end and newest message, and the caller reads the buckets of the rows
	// it shows first (NewestBuckets). 0: always the last slots only.
	WholeNewest int
}

// ListLimit bounds the fallback listing of a bare msg collection.
const ListLimit = 10000

// ConversationsOf lists uid's conversations with their windows, pinned
// first, then by their newest message's send time (listsBefore): none when the conversation collection
// holds others' lists but not uid's. Without a conversation collection it
// lists every conversation found in msg (a bare export), single chats
// filtered to those naming uid.
func (s *userReads) ConversationsOf(ctx context.Context, uid string) ([]ConversationSummary, error) {
	return s.ConversationList(ctx, uid, ListOptions{})
}

// ConversationList is ConversationsOf read as o says.
func (s *userReads) ConversationList(ctx context.Context, uid string, o ListOptions) ([]ConversationSummary, error) {
	convs, err := s.backend.Conversations(ctx, uid)
	if err != nil {
		return nil, err
	}
	return s.conversationsFrom(ctx, uid, convs, o)
}

// conversationsFrom is ConversationList from uid's conversation documents
// already read.
func (s *userReads) conversationsFrom(ctx context.Context, uid string, convs []bucket.Conversation, o ListOptions) ([]ConversationSummary, error) {
	fromMsgs := false
	if len(convs) == 0 {
		// A conversation collection that holds anyone's list is the truth:
		// uid has none (a mistyped or unknown user). Only a bare msg
		// export is listed from the messages.
		if any, err := s.holdsAny(ctx, bucket.CollConversation); err != nil || any {
			return nil, err
		}
		fromMsgs = true
		all, err := s.AllConversationIDs(ctx)
		if err != nil {
			return nil, err
		}
		for _, cid := range all {
			if ConversationTypeOf(cid) == bucket.SessionSingle && uid != "" && !pairsName(PairsOf(cid), uid) {
				continue
			}
			if bucket.IsNotificationConversation(cid) {
				continue // listed apart, by NotificationsOf
			}
			convs = append(convs, bucket.Conversation{OwnerUserID: uid, ConversationID: cid,
				ConversationType: ConversationTypeOf(cid)})
		}
	}
	byCid := make(map[string]bucket.Conversation, len(convs))
	cids := make([]string, 0, len(convs))
	for _, c := range convs {
		byCid[c.ConversationID] = c
		cids = append(cids, c.ConversationID)
	}
	ws, err := s.windows(ctx, uid, cids, byCid, nil, len(cids) > o.WholeNewest)
	if err != nil {
		return nil, err
	}
	return summaries(convs, ws, fromMsgs), nil
}

// summaries are the list's rows in the order of listsBefore.
func summaries(convs []bucket.Conversation, ws map[string]*bucket.Window, fromMsgs bool) []ConversationSummary {
	out := make([]ConversationSummary, 0, len(convs))
	for _, c := range convs {
		out = append(out, ConversationSummary{Conversation: c, Window: *ws[c.ConversationID], FromMessages: fromMsgs})
	}
	sort.SliceStable(out, func(i, j int) bool { return listsBefore(out[i], out[j]) })
	return out
}

// listsBefore orders the list as the user's app does (openim-sdk-core
// pkg/db/conversation_model.go GetAllConversationListDB: "case when
// is_pinned=1 then 0 else 1 end, max(latest_msg_send_time,
// draft_text_time) DESC"): pinned first, then by the send time of the
// newest message in the viewer's window, newest first. The app hides a
// conversation without one (latest_msg_send_time > 0); here it comes
// last. Drafts live on the device only; ties go by conversation ID.
func listsBefore(a, b ConversationSummary) bool {
	if a.IsPinned != b.IsPinned {
		return a.IsPinned
	}
	if ta, tb := a.Window.LatestSendTime(), b.Window.LatestSendTime(); ta != tb {
		return ta > tb
	}
	return a.ConversationID < b.ConversationID
}

// AllConversationIDs walks the doc_id index one conversation at a time
// (one round trip each, at most ListLimit).
func (s *userReads) AllConversationIDs(ctx context.Context) ([]string, error) {
	var out []string
	after := ""
	for len(out) < ListLimit {
		cid, ok, err := s.NextConversationID(ctx, after)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		out = append(out, cid)
		after = cid
	}
	return out, nil
}

// NextConversationID is the first conversation of the msg collection after
// the one named (after "" the very first), from the doc_id index alone.
func (s *userReads) NextConversationID(ctx context.Context, after string) (cid string, ok bool, err error) {
	return s.backend.NextConversationID(ctx, after)
}

// SplitConversationID tells the session type of cid and its parts, the way
// OpenIM's pkg/msgprocessor builds IDs (GetConversationIDBySessionType):
// "si_" single chat (1) of two users, "g_" group chat (2, WriteGroupChatType,
// legacy), "sg_" group chat (3, ReadGroupChatType), "sn_" notification chat
// (4) of two users. "n_" is the notification conversation that goes with
// another one (GetNotificationConversationIDByMsg: "n_" + a group ID or +
// two user IDs): SessionNotification, its whole rest in a, since only the
// stored data can tell a group from two users. Where user IDs contain "_"
// and the two users of a single or notification chat split more than one
// way, a and b are empty: PairsOf lists the ways, MembersFor settles them.
func SplitConversationID(cid string) (kind int32, a, b string) {
	switch {
	case strings.HasPrefix(cid, "si_"), strings.HasPrefix(cid, "sn_"):
		kind = bucket.SessionSingle
		if strings.HasPrefix(cid, "sn_") {
			kind = bucket.SessionNotification
		}
		if pairs := PairsOf(cid); len(pairs) == 1 {
			a, b = pairs[0][0], pairs[0][1]
		}
		return kind, a, b
	case strings.HasPrefix(cid, "sg_"):
		return bucket.SessionGroup, cid[3:], ""
	case strings.HasPrefix(cid, "g_"):
		return bucket.SessionWriteGroup, cid[2:], ""
	case strings.HasPrefix(cid, "n_"):
		return bucket.SessionNotification, cid[2:], ""
	}
	return 0, "", ""
}

// ConversationTypeOf is the session type a conversation ID encodes (0 unknown).
func ConversationTypeOf(cid string) int32 {
	kind, _, _ := SplitConversationID(cid)
	return kind
}

// IsGroupConversation reports a group chat, new ("sg_") or legacy ("g_"),
// whose members are in group_member (msgprocessor.IsGroupConversationID).
func IsGroupConversation(cid string) bool {
	return strings.HasPrefix(cid, "sg_") || strings.HasPrefix(cid, "g_")
}

// GroupOf is the group ID of a group chat, "" for other kinds.
func GroupOf(cid string) string {
	if !IsGroupConversation(cid) {
		return ""
	}
	_, g, _ := SplitConversationID(cid)
	return g
}

// PairsOf lists every way the rest of a "si_", "sn_" or "n_" ID splits
// into two non-empty user IDs in bytewise order, as OpenIM sorts them
// ("si_a_b_c": a|b_c and a_b|c). An ID that is in no bytewise order still
// splits at its only "_", if it has one.
func PairsOf(cid string) [][2]string {
	var rest string
	switch {
	case strings.HasPrefix(cid, "si_"), strings.HasPrefix(cid, "sn_"):
		rest = cid[3:]
	case strings.HasPrefix(cid, "n_"):
		rest = cid[2:]
	default:
		return nil
	}
	var out [][2]string
	for i := 1; i < len(rest)-1; i++ {
		if rest[i] == '_' && rest[:i] <= rest[i+1:] {
			out = append(out, [2]string{rest[:i], rest[i+1:]})
		}
	}
	if len(out) == 0 && strings.Count(rest, "_") == 1 {
		if a, b, _ := strings.Cut(rest, "_"); a != "" && b != "" {
			out = append(out, [2]string{a, b})
		}
	}
	return out
}

// Names uid: whether some way of splitting cid names uid as one of its two users.
func pairsName(pairs [][2]string, uid string) bool {
	for _, p := range pairs {
		if p[0] == uid || p[1] == uid {
			return true
		}
	}
	return false
}

// SingleChatID is the conversation ID of users a and b (sorted bytewise).
func SingleChatID(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return "si_" + a + "_" + b
}

// GroupChatID is the conversation ID of a group.
func GroupChatID(groupID string) string { return "sg_" + groupID }
