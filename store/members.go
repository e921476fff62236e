package store

import (
	"context"
	"slices"
	"sort"
	"strings"
)

// Member is a participant of a conversation, named where known.
type Member struct {
	UserID    string
	Nickname  string
	RoleLevel int32 // 0 when unknown (single chats, or no group_member collection)
}

// Members lists the participants of cid; MembersFor with no viewer.
func (s *Store) Members(ctx context.Context, cid string) ([]Member, error) {
	return s.MembersFor(ctx, cid, "")
}

// MembersFor lists the participants of cid as viewer would ask for them:
// group members from group_member; the two users of a single chat from its
// conversation ID, without a query (the conversation collection has no
// index on conversation_id in OpenIM). Nicknames come from the user
// collection, read once; that read also settles a conversation ID that
// splits more than one way (user IDs containing "_"), after the viewer.
func (s *Store) MembersFor(ctx context.Context, cid, viewer string) ([]Member, error) {
	var members []Member
	var names map[string]string
	switch kind, a, _ := SplitConversationID(cid); kind {
	case SessionGroup:
		s.trip()
		gms, err := s.backend.GroupMembers(ctx, a)
		if err != nil {
			return nil, err
		}
		for _, m := range gms {
			members = append(members, Member{UserID: m.UserID, Nickname: m.Nickname, RoleLevel: m.RoleLevel})
		}
	default:
		splits := pairSplits(cid)
		var ids []string
		for _, p := range splits {
			ids = append(ids, p[0], p[1])
		}
		if len(ids) == 0 && a != "" {
			ids = []string{a} // n_<id>: one user
		}
		var err error
		if names, err = s.UserNames(ctx, ids); err != nil {
			return nil, err
		}
		if len(splits) > 0 {
			p := pickSplit(splits, viewer, names)
			members = []Member{{UserID: p[0]}, {UserID: p[1]}}
		} else if a != "" {
			members = []Member{{UserID: a}}
		}
	}
	if names == nil {
		if err := s.nameMembers(ctx, members); err != nil {
			return nil, err
		}
	} else {
		for i := range members {
			members[i].Nickname = names[members[i].UserID]
		}
	}
	sort.SliceStable(members, func(i, j int) bool {
		if members[i].RoleLevel != members[j].RoleLevel {
			return members[i].RoleLevel > members[j].RoleLevel
		}
		return members[i].UserID < members[j].UserID
	})
	return slices.CompactFunc(members, func(x, y Member) bool { return x.UserID == y.UserID }), nil
}

// pairSplits lists every way a single or notification chat ID splits into
// two non-empty user IDs in bytewise order ("si_a_b_c": a|b_c and a_b|c).
func pairSplits(cid string) [][2]string {
	var rest string
	switch {
	case strings.HasPrefix(cid, "si_"), strings.HasPrefix(cid, "sn_"):
		rest = cid[3:]
	default:
		return nil
	}
	var out [][2]string
	for i := 1; i < len(rest)-1; i++ {
		if rest[i] == '_' && rest[:i] <= rest[i+1:] {
			out = append(out, [2]string{rest[:i], rest[i+1:]})
		}
	}
	if len(out) == 0 { // not in bytewise order: still the first split
		if a, b, ok := strings.Cut(rest, "_"); ok && a != "" && b != "" {
			out = append(out, [2]string{a, b})
		}
	}
	return out
}

// pickSplit chooses among the splits of a conversation ID: the one naming
// viewer, else the one whose users the user collection knows best, else
// the first (the split at the first "_").
func pickSplit(splits [][2]string, viewer string, known map[string]string) [2]string {
	if viewer != "" {
		for _, p := range splits {
			if p[0] == viewer || p[1] == viewer {
				return p
			}
		}
	}
	best, bestScore := splits[0], -1
	for _, p := range splits {
		score := 0
		for _, id := range p {
			if _, ok := known[id]; ok {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = p, score
		}
	}
	return best
}

func (s *Store) nameMembers(ctx context.Context, members []Member) error {
	if len(members) == 0 {
		return nil
	}
	ids := make([]string, len(members))
	for i, m := range members {
		ids[i] = m.UserID
	}
	names, err := s.UserNames(ctx, ids)
	if err != nil {
		return err
	}
	for i := range members {
		if members[i].Nickname == "" {
			members[i].Nickname = names[members[i].UserID]
		}
	}
	return nil
}

// UserNames maps user IDs to nicknames from the user collection.
func (s *Store) UserNames(ctx context.Context, ids []string) (map[string]string, error) {
	s.trip()
	users, err := s.backend.Users(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(users))
	for _, u := range users {
		out[u.UserID] = u.Nickname
	}
	return out, nil
}

// GroupNames maps group IDs to names from the group collection.
func (s *Store) GroupNames(ctx context.Context, ids []string) (map[string]string, error) {
	s.trip()
	groups, err := s.backend.Groups(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(groups))
	for _, g := range groups {
		out[g.GroupID] = g.GroupName
	}
	return out, nil
}
