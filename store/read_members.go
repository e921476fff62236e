package store

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// Member is a participant of a conversation, named where known.
type Member struct {
	UserID    string
	Nickname  string
	RoleLevel int32 // 0 when unknown (single chats, or no group_member collection)
}

// Members lists the participants of cid; MembersFor with no viewer.
func (s *userReads) Members(ctx context.Context, cid string) ([]Member, error) {
	return s.MembersFor(ctx, cid, "")
}

// MembersFor lists the participants of cid as viewer would ask for them:
// group members from group_member ("sg_" and "g_"); the two users of a
// single or notification chat from its conversation ID, without a query
// (the conversation collection has no index on conversation_id in OpenIM).
// Nicknames come from the user collection, read once; that read also
// settles an ID that splits more than one way (user IDs containing "_")
// when the viewer does not: the one split whose two users it holds. No
// split is guessed: an ID nothing settles is an AmbiguousIDError. An "n_"
// ID names a group or two users: group_member is asked first.
func (s *userReads) MembersFor(ctx context.Context, cid, viewer string) ([]Member, error) {
	var members []Member
	var names map[string]string
	_, a, _ := SplitConversationID(cid)
	group := GroupOf(cid)
	if bucket.IsNotificationConversation(cid) {
		group = a // "n_<groupID>" when group_member knows it
	}
	if group != "" {
		gms, err := s.backend.GroupMembers(ctx, group)
		if err != nil {
			return nil, err
		}
		for _, m := range gms {
			members = append(members, Member{UserID: m.UserID, Nickname: m.Nickname, RoleLevel: m.RoleLevel})
		}
	}
	if len(members) == 0 && !IsGroupConversation(cid) {
		splits := PairsOf(cid)
		var ids []string
		for _, p := range splits {
			ids = append(ids, p[0], p[1])
		}
		if len(ids) == 0 && a != "" {
			ids = []string{a} // "n_<id>": one user
		}
		var err error
		if names, err = s.UserNames(ctx, ids); err != nil {
			return nil, err
		}
		switch {
		case len(splits) > 0:
			p, ok := pickSplit(splits, viewer, names)
			if !ok {
				return nil, &AmbiguousIDError{Cid: cid, Splits: splits}
			}
			members = []Member{{UserID: p[0]}, {UserID: p[1]}}
		case a != "":
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

// AmbiguousIDError: a conversation ID splits into two users more than one
// way and nothing stored says which.
type AmbiguousIDError struct {
	Cid    string
	Splits [][2]string
}

func (e *AmbiguousIDError) Error() string {
	ways := make([]string, len(e.Splits))
	for i, p := range e.Splits {
		ways[i] = p[0] + " + " + p[1]
	}
	return fmt.Sprintf("conversation ID %s is ambiguous: its users are %s; no conversation document or user record settles it",
		e.Cid, strings.Join(ways, " or "))
}

// pickSplit chooses among the splits of a conversation ID: the only one
// naming viewer, else the only one whose two users the user collection
// (known) holds; ok is false when neither settles it.
func pickSplit(splits [][2]string, viewer string, known map[string]string) (p [2]string, ok bool) {
	if len(splits) == 1 {
		return splits[0], true
	}
	if p, ok := onlySplit(splits, func(p [2]string) bool { return viewer != "" && (p[0] == viewer || p[1] == viewer) }); ok {
		return p, true
	}
	return onlySplit(splits, func(p [2]string) bool {
		_, a := known[p[0]]
		_, b := known[p[1]]
		return a && b
	})
}

// onlySplit is the one split that match accepts; ok is false for none or several.
func onlySplit(splits [][2]string, match func([2]string) bool) (p [2]string, ok bool) {
	n := 0
	for _, s := range splits {
		if match(s) {
			p, n = s, n+1
		}
	}
	return p, n == 1
}

func (s *userReads) nameMembers(ctx context.Context, members []Member) error {
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
func (s *userReads) UserNames(ctx context.Context, ids []string) (map[string]string, error) {
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
func (s *userReads) GroupNames(ctx context.Context, ids []string) (map[string]string, error) {
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
