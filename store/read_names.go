package store

import (
	"context"

	"github.com/chatlens/chatlens/store/bucket"
)

// PeerOf is the other user of owner's single chat c, "" for other kinds:
// the conversation document's user_id when it names someone else, else the
// other ID in the conversation ID when only one split of it names owner;
// "" when the ID is ambiguous (user IDs containing "_"): no guess.
func PeerOf(c bucket.Conversation, owner string) string {
	if ConversationTypeOf(c.ConversationID) != bucket.SessionSingle {
		return ""
	}
	if c.UserID != "" && c.UserID != owner {
		return c.UserID
	}
	pairs := PairsOf(c.ConversationID)
	p, ok := onlySplit(pairs, func(p [2]string) bool { return p[0] == owner || p[1] == owner })
	if !ok && len(pairs) == 1 {
		p, ok = pairs[0], true // owner is neither: the ID still names both users
	}
	switch {
	case !ok:
		return ""
	case p[0] == owner:
		return p[1]
	}
	return p[0]
}

// ConversationNames names each of owner's conversations as a user would:
// the other user's nickname in a single chat, the group's name in a group,
// the IDs where no name is stored. Two round trips however long the list.
func (s *userReads) ConversationNames(ctx context.Context, owner string, list []bucket.Conversation) (map[string]string, error) {
	var users, groups []string
	for _, c := range list {
		if p := PeerOf(c, owner); p != "" {
			users = append(users, p)
		}
		if g := GroupOf(c.ConversationID); g != "" {
			groups = append(groups, g)
		}
	}
	userNames, err := s.UserNames(ctx, users)
	if err != nil {
		return nil, err
	}
	groupNames, err := s.GroupNames(ctx, groups)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(list))
	for _, c := range list {
		out[c.ConversationID] = ConversationName(c, owner, userNames, groupNames)
	}
	return out, nil
}

// ConversationName names owner's conversation c from names already read:
// the other user's nickname in a single chat, the group's name in a group,
// the IDs where no name is known.
func ConversationName(c bucket.Conversation, owner string, userNames, groupNames map[string]string) string {
	if p := PeerOf(c, owner); p != "" {
		if n := userNames[p]; n != "" {
			return n
		}
		return p
	}
	if g := GroupOf(c.ConversationID); g != "" {
		if n := groupNames[g]; n != "" {
			return n
		}
		return g
	}
	return c.ConversationID
}
