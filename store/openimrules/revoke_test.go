package openimrules_test

import (
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/openimrules"
)

// TestRevokeRule: who may revoke what, as open-im-server
// internal/rpc/msg/revoke.go RevokeMsg decides it. In a single chat only
// the sender, recording their user.app_manger_level; in a group the sender,
// the owner anyone's, an admin an ordinary member's or a non-member's (the
// server only refuses when the sender is a member above ordinary), nobody
// else; any other session type is not supported; an app admin may revoke
// anything, with role 0.
func TestRevokeRule(t *testing.T) {
	owner := &bucket.GroupMember{UserID: "olga", RoleLevel: bucket.RoleOwner}
	admin := &bucket.GroupMember{UserID: "adam", RoleLevel: bucket.RoleAdmin}
	admin2 := &bucket.GroupMember{UserID: "ada", RoleLevel: bucket.RoleAdmin}
	member := &bucket.GroupMember{UserID: "mo", RoleLevel: bucket.RoleMember}
	single := &bucket.MsgData{SendID: "bob", RecvID: "alice", SessionType: bucket.SessionSingle}
	group := func(from string) *bucket.MsgData {
		return &bucket.MsgData{SendID: from, GroupID: "club", SessionType: bucket.SessionGroup}
	}
	tests := []struct {
		name   string
		msg    *bucket.MsgData
		who    openimrules.Revoker
		sender *bucket.GroupMember
		ok     bool
		role   int32
		rule   string
	}{
		{"single: the sender", single, openimrules.Revoker{UserID: "bob", AppMangerLevel: 3}, nil, true, 3, ""},
		{"single: the other user", single, openimrules.Revoker{UserID: "alice"}, nil, false, 0, "only the sender (bob)"},
		{"group: own message", group("mo"), openimrules.Revoker{UserID: "mo", Member: member}, member, true, bucket.RoleMember, ""},
		// A member who left may not revoke even their own message: the
		// server's GetGroupMemberInfoMap fails for a caller outside the group
		// (1002 "op user not in group") before the sender rule is reached.
		{"group: own message, no longer a member", group("gone"), openimrules.Revoker{UserID: "gone", MembersKnown: true}, nil, false, 0, "gone is not a member of group club (left, or never joined)"},
		{"group: own message, members not stored", group("gone"), openimrules.Revoker{UserID: "gone"}, nil, true, 0, ""},
		{"group: owner, an admin's message", group("adam"), openimrules.Revoker{UserID: "olga", Member: owner}, admin, true, bucket.RoleOwner, ""},
		{"group: admin, a member's message", group("mo"), openimrules.Revoker{UserID: "adam", Member: admin}, member, true, bucket.RoleAdmin, ""},
		{"group: admin, a non-member's message", group("gone"), openimrules.Revoker{UserID: "adam", Member: admin}, nil, true, bucket.RoleAdmin, ""},
		{"group: admin, another admin's message", group("ada"), openimrules.Revoker{UserID: "adam", Member: admin}, admin2, false, 0, "only an ordinary member's message (the sender ada is the group's admin)"},
		{"group: admin, the owner's message", group("olga"), openimrules.Revoker{UserID: "adam", Member: admin}, owner, false, 0, "the group's owner"},
		{"group: member, someone else's", group("ada"), openimrules.Revoker{UserID: "mo", Member: member}, admin2, false, 0, "an ordinary member may revoke only their own"},
		{"group: non-member", group("mo"), openimrules.Revoker{UserID: "zed", MembersKnown: true}, member, false, 0, "zed is not a member of group club"},
		{"group: non-member, members not stored", group("mo"), openimrules.Revoker{UserID: "zed"}, member, false, 0, "zed is not a member of group club"},
		{"notification: not supported", &bucket.MsgData{SendID: "sys", SessionType: bucket.SessionNotification}, openimrules.Revoker{UserID: "sys"}, nil, false, 0, "not session type 4"},
		{"app admin: anything, role 0", group("olga"), openimrules.Revoker{UserID: "mo", Member: member, Admin: true}, owner, true, 0, ""},
	}
	for _, tt := range tests {
		d := openimrules.RevokeRule(tt.msg, tt.who, tt.sender)
		if d.Allowed != tt.ok || (tt.ok && d.Role != tt.role) || !strings.Contains(d.Rule, tt.rule) {
			t.Errorf("%s: allowed %v role %d rule %q; want %v role %d rule with %q", tt.name, d.Allowed, d.Role, d.Rule, tt.ok, tt.role, tt.rule)
		}
	}
}
