package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// Whether a user ID names someone the store knows, and whether they belong
// to a conversation: a mistyped or hostile --by must not write, and a
// mistyped --as must not silently show what nobody sees.

// UserCheck is what the store knows of one user.
type UserCheck struct {
	Known bool
	// Decided is false when the store holds nothing that could say (no
	// user collection, no membership records): Known is then true, as
	// refusing everyone would make a bare msg export unusable.
	Decided bool
	// User is the user's record, nil when the user collection has none.
	User *bucket.User
	Why  string // how Known was decided, for messages
}

// CheckUser tells whether uid is a user this store knows, deciding from the
// user collection when it holds anyone (one round trip when uid is in it),
// else from membership of cid (group_member, the IDs in a single chat's
// conversation ID, uid's conversation documents).
func (s *userReads) CheckUser(ctx context.Context, uid, cid string) (UserCheck, error) {
	users, err := s.backend.Users(ctx, []string{uid})
	if err != nil {
		return UserCheck{}, err
	}
	for _, u := range users {
		if u.UserID == uid {
			return UserCheck{Known: true, Decided: true, User: &u, Why: "in the user collection"}, nil
		}
	}
	any, err := s.holdsAny(ctx, bucket.CollUser)
	if err != nil {
		return UserCheck{}, err
	}
	if any {
		return UserCheck{Decided: true, Why: "not in the user collection"}, nil
	}
	member, decided, err := s.isMember(ctx, uid, cid)
	if err != nil || decided {
		why := "named by " + cid
		if !member {
			why = "not a member of " + cid + " and no user collection"
		}
		return UserCheck{Known: member, Decided: decided, Why: why}, err
	}
	convs, err := s.backend.Conversations(ctx, uid)
	if err != nil {
		return UserCheck{}, err
	}
	if len(convs) > 0 {
		return UserCheck{Known: true, Decided: true, Why: "owns conversation documents"}, nil
	}
	any, err = s.holdsAny(ctx, bucket.CollConversation)
	if err != nil || any {
		return UserCheck{Decided: true, Why: "no user record, no membership, no conversation document"}, err
	}
	return UserCheck{Known: true, Why: "nothing stored says who the users are"}, nil
}

// isMember tells whether uid belongs to cid: one of the two users of a
// single or notification chat (no read), or in group_member for a group
// (one read). decided is false when the store cannot tell (a group with no
// group_member records, an ID that names no users).
func (s *userReads) isMember(ctx context.Context, uid, cid string) (member, decided bool, err error) {
	group := GroupOf(cid)
	if bucket.IsNotificationConversation(cid) {
		_, group, _ = SplitConversationID(cid) // "n_<group>" when group_member knows it
	}
	if group != "" {
		gms, err := s.backend.GroupMembers(ctx, group)
		if err != nil {
			return false, false, err
		}
		if len(gms) > 0 {
			return slices.ContainsFunc(gms, func(m bucket.GroupMember) bool { return m.UserID == uid }), true, nil
		}
	}
	if pairs := PairsOf(cid); len(pairs) > 0 && !IsGroupConversation(cid) {
		return pairsName(pairs, uid), true, nil
	}
	return false, false, nil
}

// holdsAny reports whether coll holds at least one document (one round trip).
func (s *userReads) holdsAny(ctx context.Context, coll string) (bool, error) {
	return HoldsAny(ctx, s.backend, coll)
}

// UnknownUserError refuses a write by a user the store does not know.
type UnknownUserError struct {
	Action, Cid, UserID, Why string
}

func (e *UnknownUserError) Error() string {
	return fmt.Sprintf("%s in %s refused, nothing written: %q is not a user this store knows (%s)", e.Action, e.Cid, e.UserID, e.Why)
}

// ViewerWarnings are the warnings a read as uid of cid ("" for a list of
// all uid's conversations) deserves: a user the store does not know, or
// not a member of the conversation. Nothing when all is well.
func (s *userReads) ViewerWarnings(ctx context.Context, uid, cid string) ([]string, error) {
	uc, err := s.CheckUser(ctx, uid, cid)
	if err != nil {
		return nil, err
	}
	var out []string
	if !uc.Known {
		out = append(out, fmt.Sprintf("%q is not a user this store knows (%s)", uid, uc.Why))
	}
	if cid == "" {
		return out, nil
	}
	member, decided, err := s.isMember(ctx, uid, cid)
	if err != nil || !decided || member {
		return out, err
	}
	return append(out, fmt.Sprintf("%q is not a member of %s: this is what a non-member would be shown", uid, cid)), nil
}

// UnpulledNote says, in one line, why uid is shown nothing of w's
// conversation (a window that PulledNothing): OpenIM's pull gives that
// user's devices none of it.
func UnpulledNote(uid string, w bucket.Window) string {
	if w.UnreadableMinKey == "" {
		return fmt.Sprintf("%q has no conversation document for %s, so OpenIM pulls nothing of it to their devices (not a member, the app admin, or never added): nothing to show",
			uid, w.Cid)
	}
	return fmt.Sprintf("%q is pulled nothing of %s: %s: nothing to show", uid, w.Cid, w.UnpulledReason(fmt.Sprintf("%q", uid)))
}
