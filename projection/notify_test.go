package projection

import "testing"

func TestSummaryNotifications(t *testing.T) {
	type obj = map[string]any
	grp := obj{"groupID": "g1", "groupName": "Team", "notification": "Standup at 10"}
	alice := obj{"groupID": "g1", "userID": "u1", "nickname": "Alice", "roleLevel": 100}
	bob := obj{"userID": "u2", "nickname": "Bob"}
	carol := obj{"userID": "u3", "nickname": "Carol"}
	nonick := obj{"userID": "u4"}
	dave, erin := obj{"userID": "u5", "nickname": "Dave"}, obj{"userID": "u6", "nickname": "Erin"}
	friendReq := obj{"fromUserID": "u1", "fromNickname": "Alice", "toUserID": "u2", "toNickname": "Bob", "reqMsg": "hi, it's Alice"}
	tests := []struct {
		name   string
		ct     int32
		detail any
		want   string
	}{
		{"group created", 1501, obj{"group": grp, "opUser": alice, "memberList": []obj{bob, carol}, "operationTime": 1}, `Alice created group "Team" with Bob, Carol`},
		{"group created, many members", 1501, obj{"group": grp, "opUser": alice, "memberList": []obj{bob, carol, nonick, dave, erin}}, `Alice created group "Team" with Bob, Carol, u4 and 2 more`},
		{"group created, owner only", 1501, obj{"group": obj{"groupID": "g1"}, "groupOwnerUser": alice}, `Alice created group "g1"`},
		{"group info set", 1502, obj{"opUser": alice, "group": grp, "muteTime": 0}, `Alice changed the info of group "Team"`},
		{"join application", 1503, obj{"group": grp, "applicant": obj{"userID": "u2", "nickname": "Bob"}, "reqMsg": "let me in"}, `Bob asked to join group "Team": "let me in"`},
		{"member quit", 1504, obj{"group": grp, "quitUser": bob}, `Bob left group "Team"`},
		{"application accepted", 1505, obj{"group": grp, "opUser": alice, "request": obj{"userInfo": bob}}, `Alice accepted Bob's request to join group "Team"`},
		{"application rejected", 1506, obj{"group": grp, "opUser": alice}, `Alice declined a request to join group "Team"`},
		{"owner transferred", 1507, obj{"group": grp, "opUser": alice, "newGroupOwner": bob, "oldGroupOwner": "u1"}, `Alice transferred ownership of group "Team" to Bob`},
		{"members kicked", 1508, obj{"group": grp, "opUser": alice, "kickedUserList": []obj{bob, nonick}}, `Alice removed Bob, u4 from group "Team"`},
		{"members invited", 1509, obj{"group": grp, "opUser": alice, "invitedUserList": []obj{carol}}, `Alice invited Carol to group "Team"`},
		{"members invited by inviter", 1509, obj{"group": grp, "opUser": alice, "inviterUser": bob, "invitedUserList": []obj{carol}}, `Bob invited Carol to group "Team"`},
		{"member entered", 1510, obj{"group": grp, "entrantUser": carol}, `Carol joined group "Team"`},
		{"group dismissed", 1511, obj{"group": grp, "opUser": alice}, `Alice dismissed group "Team"`},
		{"member muted", 1512, obj{"group": grp, "opUser": alice, "mutedUser": bob, "mutedSeconds": 600}, `Alice muted Bob for 10m`},
		{"member muted, int64 as string", 1512, obj{"group": grp, "opUser": alice, "mutedUser": bob, "mutedSeconds": "9000"}, `Alice muted Bob for 2h 30m`},
		{"member unmuted", 1513, obj{"group": grp, "opUser": alice, "mutedUser": bob}, `Alice unmuted Bob`},
		{"group muted", 1514, obj{"group": grp, "opUser": alice}, `Alice muted group "Team"`},
		{"group unmuted", 1515, obj{"group": grp, "opUser": alice}, `Alice unmuted group "Team"`},
		{"member info set", 1516, obj{"group": grp, "opUser": alice, "changedUser": bob}, `Alice changed the member info of Bob`},
		{"set to admin", 1517, obj{"group": grp, "opUser": alice, "changedUser": bob}, `Alice made Bob an admin`},
		{"set to ordinary", 1518, obj{"group": grp, "opUser": alice, "changedUser": bob}, `Alice made Bob an ordinary member`},
		{"announcement", 1519, obj{"group": grp, "opUser": alice}, `Alice set the announcement of group "Team": "Standup at 10"`},
		{"renamed", 1520, obj{"group": grp, "opUser": alice}, `Alice renamed the group to "Team"`},
		{"group notice with nothing in it", 1508, obj{}, `someone removed members from the group`},
		{"friend request approved", 1201, obj{"fromToUserID": obj{"fromUserID": "u2", "toUserID": "u1"}, "request": friendReq}, `Bob accepted Alice's friend request`},
		{"friend request rejected", 1202, obj{"fromToUserID": obj{"fromUserID": "u2", "toUserID": "u1"}}, `u2 declined u1's friend request`},
		{"friend request", 1203, obj{"fromToUserID": obj{"fromUserID": "u1", "toUserID": "u2"}, "request": friendReq}, `Alice sent Bob a friend request: "hi, it's Alice"`},
		{"friend added", 1204, obj{"friend": obj{"ownerUserID": "u1", "friendUser": bob}, "opUser": obj{"userID": "u1", "nickname": "Alice"}}, `Alice added Bob as a friend`},
		{"friend deleted", 1205, obj{"fromToUserID": obj{"fromUserID": "u1", "toUserID": "u2"}}, `u1 removed u2 from friends`},
		{"friend remark", 1206, obj{"fromToUserID": obj{"fromUserID": "u1", "toUserID": "u2"}}, `u1 set a remark for u2`},
		{"black added", 1207, obj{"fromToUserID": obj{"fromUserID": "u1", "toUserID": "u2"}}, `u1 blocked u2`},
		{"black deleted", 1208, obj{"fromToUserID": obj{"fromUserID": "u1", "toUserID": "u2"}}, `u1 unblocked u2`},
		{"friend info updated", 1209, obj{"fromToUserID": obj{"fromUserID": "u1", "toUserID": "u2"}}, `u1 updated friend info`},
		{"friends info updated", 1210, obj{"fromToUserID": obj{"fromUserID": "u1"}, "friendIDs": []string{"u2", "u3"}}, `u1 updated the info of 2 friends`},
		{"conversation changed", 1300, obj{"userID": "u1", "conversationIDList": []string{"si_u1_u2"}}, `conversation settings changed`},
		{"user info updated", 1303, obj{"userID": "u1"}, `u1 updated their profile`},
		{"user status", 1304, obj{"fromUserID": "u1", "status": 1}, `u1 is now online`},
		{"OA notification", 1400, obj{"notificationName": "Admin", "text": "Maintenance tonight"}, `Admin: Maintenance tonight`},
		{"burn after reading", 1701, obj{"isPrivate": true, "conversationID": "si_u1_u2"}, `burn after reading turned on`},
		{"conversation cleared", 1703, obj{"userID": "u1", "conversationIDs": []string{"c"}}, `conversation cleared`},
		{"business", 2001, obj{"key": "order", "data": "{}"}, `[business notice order]`},
		{"revoke", 2101, obj{"revokerID": "u1", "revokerRole": 100, "revokerNickname": "Alice", "sourceMessageSendID": "u1", "sourceMessageSenderNickname": "Alice"}, `Alice revoked a message`},
		{"revoke by admin", 2101, obj{"revokerID": "u3", "revokerNickname": "Carol", "sourceMessageSendID": "u2", "sourceMessageSenderNickname": "Bob"}, `Carol revoked a message from Bob`},
		{"revoke with nothing", 2101, obj{}, `someone revoked a message`},
		// sdkws.RevokeMsgTips and DeleteMsgsTips as the server tells devices (shared/openim-recorded n_g1, n_u2_u2).
		{"revoke notification", 2101, obj{"revokerUserID": "u1", "seq": 199, "conversationID": "sg_g1", "isAdminRevoke": false}, `u1 revoked a message (seq 199 of sg_g1)`},
		{"delete notification", 2102, obj{"userID": "u2", "conversationID": "si_u1_u2", "seqs": []int{4, 9}}, `u2 deleted 2 messages (seq 4, 9 of si_u1_u2)`},
		{"delete notification of many", 2102, obj{"userID": "u2", "conversationID": "c", "seqs": []int{1, 2, 3, 4, 5, 6}}, `u2 deleted 6 messages (seq 1, 2, 3, 4, 5, … of c)`},
		{"delete", 2102, obj{"userID": "u1", "conversationID": "c", "seqs": []int{4, 5}}, `u1 deleted 2 messages (seq 4, 5 of c)`},
		{"read receipt", 2200, obj{"markAsReadUserID": "u2", "conversationID": "c", "seqs": []int{7}, "hasReadSeq": 7}, `u2 read up to seq 7`},
		{"read receipt without read seq", 2200, obj{"markAsReadUserID": "u2", "seqs": []int{7}}, `u2 read 1 message`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := groupMessage(5, tc.ct, notice(tc.detail))
			m.SessionType = 4
			if got := Summary(View(stored(5, m), "", "bob", Conv{ID: "sn_u1"}, nil)); got != tc.want {
				t.Errorf("Summary = %q, want %q", got, tc.want)
			}
		})
	}
}

// Details that are not what a notification should hold still give a line;
// one that is no JSON object is marked malformed, as other
// content is, never drawn as "someone created the group".
func TestSummaryOddNotifications(t *testing.T) {
	tests := []struct {
		ct      int32
		content string
		want    string
	}{
		{1501, `{"detail":{"opUser":{"nickname":"Alice"}}}`, `Alice created the group`}, // detail as an object
		{1501, `{"detail":"not json"}`, `[malformed: type 1501 detail is not a JSON object: not json]`},
		{2101, `{"detail":"<junk>"}`, `[malformed: type 2101 detail is not a JSON object: <junk>]`},
		{2101, `{"detail":7}`, `[malformed: type 2101 detail is not a JSON object: 7]`},
		{1501, `{"detail":"{\"opUser\":\"Alice\",\"group\":[1]}"}`, `someone created the group`}, // wrong types
		{1509, `{"detail":"{\"invitedUserList\":[1,\"x\",{\"userID\":\"u9\"}]}"}`, `someone invited u9 to the group`},
		{1501, `{}`, `someone created the group`}, // as OpenIM writes a quote of seq 0
		{1501, `nope`, `[malformed: type 1501 content is not a JSON object: nope]`},
	}
	for _, tc := range tests {
		if got := summaryOf(tc.ct, tc.content); got != tc.want {
			t.Errorf("%d %s: Summary = %q, want %q", tc.ct, tc.content, got, tc.want)
		}
	}
}
