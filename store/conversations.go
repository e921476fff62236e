package store

import (
	"context"
	"sort"
	"strings"
)

// ConversationSummary is one row of a user's conversation list.
type ConversationSummary struct {
	Conversation
	Window
	// FromMessages is true when there is no conversation document and the
	// entry was found from doc_id prefixes of the msg collection.
	FromMessages bool
}

// ListLimit bounds the fallback listing of a bare msg collection.
const ListLimit = 10000

// ConversationsOf lists uid's conversations with their windows, pinned
// first, then by conversation ID. Without a conversation collection it lists
// every conversation found in msg (a bare export), single chats filtered to
// those naming uid.
func (s *Store) ConversationsOf(ctx context.Context, uid string) ([]ConversationSummary, error) {
	s.trip()
	convs, err := s.backend.Conversations(ctx, uid)
	if err != nil {
		return nil, err
	}
	fromMsgs := false
	if len(convs) == 0 {
		fromMsgs = true
		all, err := s.AllConversationIDs(ctx)
		if err != nil {
			return nil, err
		}
		for _, cid := range all {
			if t, a, b := SplitConversationID(cid); t == SessionSingle && uid != "" && a != uid && b != uid {
				continue
			}
			convs = append(convs, Conversation{OwnerUserID: uid, ConversationID: cid,
				ConversationType: ConversationTypeOf(cid)})
		}
	}
	byCid := make(map[string]Conversation, len(convs))
	cids := make([]string, 0, len(convs))
	for _, c := range convs {
		byCid[c.ConversationID] = c
		cids = append(cids, c.ConversationID)
	}
	ws, err := s.Windows(ctx, uid, cids, byCid)
	if err != nil {
		return nil, err
	}
	out := make([]ConversationSummary, 0, len(convs))
	for _, c := range convs {
		out = append(out, ConversationSummary{Conversation: c, Window: *ws[c.ConversationID], FromMessages: fromMsgs})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].IsPinned != out[j].IsPinned {
			return out[i].IsPinned
		}
		return out[i].ConversationID < out[j].ConversationID
	})
	return out, nil
}

// AllConversationIDs walks the doc_id index one conversation at a time
// (one round trip each, at most ListLimit).
func (s *Store) AllConversationIDs(ctx context.Context) ([]string, error) {
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
func (s *Store) NextConversationID(ctx context.Context, after string) (cid string, ok bool, err error) {
	s.trip()
	return s.backend.NextConversationID(ctx, after)
}

// SplitConversationID tells the session type of cid and its parts: the two
// users of a single or notification chat, or the group ID of a group chat.
// User IDs containing "_" make single-chat IDs ambiguous; the split is at the
// first "_" after the prefix, and MembersFor settles it with the viewer and
// the user collection.
func SplitConversationID(cid string) (kind int32, a, b string) {
	switch {
	case strings.HasPrefix(cid, "si_"):
		a, b, _ = strings.Cut(cid[3:], "_")
		return SessionSingle, a, b
	case strings.HasPrefix(cid, "sg_"):
		return SessionGroup, cid[3:], ""
	case strings.HasPrefix(cid, "g_"):
		return SessionGroup, cid[2:], ""
	case strings.HasPrefix(cid, "sn_"):
		a, b, _ = strings.Cut(cid[3:], "_")
		return SessionNotification, a, b
	case strings.HasPrefix(cid, "n_"):
		return SessionNotification, cid[2:], ""
	}
	return 0, "", ""
}

// ConversationTypeOf is the session type a conversation ID encodes (0 unknown).
func ConversationTypeOf(cid string) int32 {
	kind, _, _ := SplitConversationID(cid)
	return kind
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
