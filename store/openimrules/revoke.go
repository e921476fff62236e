// Package openimrules holds OpenIM Server's rules that chatlens follows and
// that need no I/O: who may revoke a message.
// Writes on the store and the UI's dialogs both ask them, so the two say
// the same.
package openimrules

import (
	"fmt"

	"github.com/chatlens/chatlens/store/bucket"
)

// Who may revoke a message, decided as OpenIM Server's RevokeMsg
// (internal/rpc/msg/revoke.go) decides it. The scripted commands and the UI
// both ask RevokeRule; nothing else decides it.

// Revoker is who asks to revoke, with what the rule needs to know of them.
type Revoker struct {
	UserID string
	// Admin: the operator acts as an app admin (OpenIM's IM admin), who may
	// revoke anything and writes role 0.
	Admin bool
	// AppMangerLevel is the revoker's user.app_manger_level (OpenIM's
	// spelling): the role a revoke in a single chat records.
	AppMangerLevel int32
	// Member is the revoker's group_member record in the message's group,
	// nil when they are not a member (or the message is not a group's).
	Member *bucket.GroupMember
	// MembersKnown: the store holds the group's group_member records, so a
	// nil Member means the revoker is not (or no longer) in the group.
	MembersKnown bool
}

// RevokeDecision is RevokeRule's answer for one message.
type RevokeDecision struct {
	Allowed bool
	Role    int32  // the role the revoke record carries when allowed
	Rule    string // the rule that decided, in words, for errors and the dialog
}

// The group roles as the rule's words name them (bucket.RoleName).
var (
	owner    = bucket.RoleName(bucket.RoleOwner)
	admin    = bucket.RoleName(bucket.RoleAdmin)
	ordinary = bucket.RoleName(bucket.RoleMember)
)

// RevokeRule decides whether who may revoke msg. sender is the sender's
// group_member record in the message's group (nil when not a member).
// The message's own session_type picks the rule, as the server does:
//   - an app admin may revoke anything, with role 0;
//   - single chat (1): only the sender; role = user.app_manger_level;
//   - group chat (3): only a member, not even the sender once they have
//     left (GetGroupMemberInfoMap fails for a caller not in the group before
//     the sender rule is reached: 1002 "op user not in group"); the sender;
//     the owner anyone's; an admin only an ordinary member's or a
//     non-member's; an ordinary member nobody else's; role = the revoker's
//     role_level. A store without the group's members cannot tell who left:
//     there the sender may, with role 0;
//   - any other session type: the server does not revoke it.
func RevokeRule(msg *bucket.MsgData, who Revoker, sender *bucket.GroupMember) RevokeDecision {
	if who.Admin {
		return RevokeDecision{Allowed: true, Rule: "an app admin may revoke any message (role 0)"}
	}
	switch msg.SessionType {
	case bucket.SessionSingle:
		if who.UserID == msg.SendID {
			return RevokeDecision{Allowed: true, Role: who.AppMangerLevel, Rule: "the sender may revoke their own message"}
		}
		return RevokeDecision{Rule: fmt.Sprintf("in a single chat only the sender (%s) may revoke", msg.SendID)}
	case bucket.SessionGroup:
		role := int32(0)
		if who.Member != nil {
			role = who.Member.RoleLevel
		}
		if who.Member == nil && who.MembersKnown {
			return RevokeDecision{Rule: fmt.Sprintf("%s is not a member of group %s (left, or never joined): OpenIM refuses a revoke by anyone outside the group, their own messages too", who.UserID, msg.GroupID)}
		}
		if who.UserID == msg.SendID {
			return RevokeDecision{Allowed: true, Role: role, Rule: "the sender may revoke their own message"}
		}
		switch {
		case who.Member == nil:
			return RevokeDecision{Rule: fmt.Sprintf("%s is not a member of group %s: only the sender, the owner or an admin may revoke", who.UserID, msg.GroupID)}
		case role == bucket.RoleOwner:
			return RevokeDecision{Allowed: true, Role: role, Rule: "the group " + owner + " may revoke anyone's message"}
		case role == bucket.RoleAdmin && (sender == nil || sender.RoleLevel == bucket.RoleMember):
			return RevokeDecision{Allowed: true, Role: role, Rule: "a group " + admin + " may revoke an " + ordinary + "'s or a non-member's message"}
		case role == bucket.RoleAdmin:
			return RevokeDecision{Rule: fmt.Sprintf("a group %s may revoke only an %s's message (the sender %s is the group's %s)",
				admin, ordinary, msg.SendID, bucket.RoleName(sender.RoleLevel))}
		}
		return RevokeDecision{Rule: fmt.Sprintf("an %s may revoke only their own message (sent by %s)", ordinary, msg.SendID)}
	}
	return RevokeDecision{Rule: fmt.Sprintf("OpenIM revokes only single (1) and group (3) chat messages, not session type %d, except for an app admin (--admin)", msg.SessionType)}
}

// RevokeWho says who may revoke msg, for the UI's dialog before it asks.
func RevokeWho(msg *bucket.MsgData) string {
	switch msg.SessionType {
	case bucket.SessionSingle:
		return fmt.Sprintf("who may revoke: only the sender, %s (single chat), or an app admin", msg.SendID)
	case bucket.SessionGroup:
		return fmt.Sprintf("who may revoke: the sender %s while in the group, the group %s, an %s if %s is an %s or not a member, or an app admin",
			msg.SendID, owner, admin, msg.SendID, ordinary)
	}
	return fmt.Sprintf("who may revoke: only an app admin (session type %d)", msg.SessionType)
}
