package projection

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// Notification details (OpenIM's sdkws *Tips) are JSON inside the content's
// "detail" string. Fields differ between server versions and may be
// missing, so every actor falls back from nickname to user ID to "someone".

// notificationLine is one readable line for a notification content.
func notificationLine(ct int32, content string) string {
	if !knownNotification(ct) {
		return "[type " + strconv.Itoa(int(ct)) + "]"
	}
	o, ok := parseObject(content)
	if !ok {
		return malformed(ct, content)
	}
	// No detail at all is what OpenIM itself writes of a quoted seq 0 or
	// less (content "{}", rule 5); a detail that is no JSON object is junk.
	d := o.obj("detail")
	raw, ok := o["detail"]
	switch {
	case !ok:
		d = object{}
	case d == nil:
		return "[malformed: type " + strconv.Itoa(int(ct)) + " detail is not a JSON object: " + Truncate(SingleLine(detailText(raw)), 40) + "]"
	}
	if ct >= 1501 && ct <= 1520 {
		return groupLine(ct, d)
	}
	if ct >= 1201 && ct <= 1210 {
		return friendLine(ct, d)
	}
	switch ct {
	case 1300:
		return "conversation settings changed"
	case 1303:
		return orElse(d.str("userID"), "someone") + " updated their profile"
	case 1304:
		state := "offline"
		if d.int("status") == 1 {
			state = "online"
		}
		return orElse(d.str("fromUserID"), "someone") + " is now " + state
	case 1400:
		return oaLine(d)
	case 1701:
		state := "off"
		if string(d["isPrivate"]) == "true" {
			state = "on"
		}
		return "burn after reading turned " + state
	case 1703:
		return "conversation cleared"
	case 2001:
		return "[business notice " + orElse(d.str("key"), "?") + "]"
	case RevokeNotice:
		return revokeLine(d)
	case DeleteNotice:
		return orElse(d.str("userID"), d.str("opUserID"), "someone") + " deleted " + plural(d.count("seqs"), "message") + about(d)
	default: // ReadReceipt
		return readLine(d)
	}
}

// detailText is a detail as stored: a string's text, else its JSON.
func detailText(raw json.RawMessage) string {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return text
	}
	return string(raw)
}

// knownNotification reports the notification types notificationLine reads.
func knownNotification(ct int32) bool {
	switch {
	case ct >= 1501 && ct <= 1520, ct >= 1201 && ct <= 1210:
		return true
	}
	switch ct {
	case 1300, 1303, 1304, 1400, 1701, 1703, 2001, RevokeNotice, DeleteNotice, ReadReceipt:
		return true
	}
	return false
}

// who names a member, user or applicant object.
func who(u object) string { return orElse(u.str("nickname"), u.str("userID"), "someone") }

// whoList names up to three people, then how many more.
func whoList(us []object) string {
	if len(us) == 0 {
		return "members"
	}
	names := make([]string, 0, 3)
	for _, u := range us[:min(3, len(us))] {
		names = append(names, who(u))
	}
	s := strings.Join(names, ", ")
	if len(us) > 3 {
		s += " and " + strconv.Itoa(len(us)-3) + " more"
	}
	return s
}

// plural is "N things"; a count below 0 (no list) is just "things".
func plural(n int, thing string) string {
	switch {
	case n == 1:
		return "1 " + thing
	case n < 0:
		return thing + "s"
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

func groupLine(ct int32, d object) string {
	g, opUser := d.obj("group"), d.obj("opUser")
	op := who(opUser)
	name := orElse(g.str("groupName"), g.str("groupID"))
	group := "the group"
	if name != "" {
		group = `group "` + name + `"`
	}
	switch ct {
	case 1501:
		if owner := d.obj("groupOwnerUser"); opUser == nil && owner != nil {
			op = who(owner)
		}
		s := op + " created " + group
		if ms := d.objs("memberList"); len(ms) > 0 {
			s += " with " + whoList(ms)
		}
		return s
	case 1502:
		return op + " changed the info of " + group
	case 1503:
		applicant, req := d.obj("applicant"), d.obj("request")
		if applicant == nil {
			applicant = req.obj("userInfo")
		}
		s := who(applicant) + " asked to join " + group
		if msg := orElse(d.str("reqMsg"), req.str("reqMsg")); msg != "" {
			s += `: "` + msg + `"`
		}
		return s
	case 1504:
		return who(d.obj("quitUser")) + " left " + group
	case 1505, 1506:
		verb := map[int32]string{1505: " accepted ", 1506: " declined "}[ct]
		req := "a request to join "
		if u := d.obj("request").obj("userInfo"); u != nil {
			req = who(u) + "'s request to join "
		}
		return op + verb + req + group
	case 1507:
		return op + " transferred ownership of " + group + " to " + who(d.obj("newGroupOwner"))
	case 1508:
		return op + " removed " + whoList(d.objs("kickedUserList")) + " from " + group
	case 1509:
		if inviter := d.obj("inviterUser"); inviter != nil {
			op = who(inviter)
		}
		return op + " invited " + whoList(d.objs("invitedUserList")) + " to " + group
	case 1510:
		return who(d.obj("entrantUser")) + " joined " + group
	case 1511:
		return op + " dismissed " + group
	case 1512:
		s := op + " muted " + who(d.obj("mutedUser"))
		if secs := d.int("mutedSeconds"); secs > 0 {
			s += " for " + span(secs)
		}
		return s
	case 1513:
		return op + " unmuted " + who(d.obj("mutedUser"))
	case 1514:
		return op + " muted " + group
	case 1515:
		return op + " unmuted " + group
	case 1516:
		return op + " changed the member info of " + who(d.obj("changedUser"))
	case 1517:
		return op + " made " + who(d.obj("changedUser")) + " an " + bucket.RoleName(bucket.RoleAdmin)
	case 1518:
		return op + " made " + who(d.obj("changedUser")) + " an " + bucket.RoleName(bucket.RoleMember)
	case 1519:
		s := op + " set the announcement of " + group
		if text := g.str("notification"); text != "" {
			s += `: "` + text + `"`
		}
		return s
	default: // 1520
		if n := g.str("groupName"); n != "" {
			return op + ` renamed the group to "` + n + `"`
		}
		return op + " renamed the group"
	}
}

func friendLine(ct int32, d object) string {
	req := d.obj("request")
	// FriendRequest carries both nicknames; FromToUserID only IDs.
	names := map[string]string{}
	for _, p := range [][2]string{{"fromUserID", "fromNickname"}, {"toUserID", "toNickname"}} {
		if id, nick := req.str(p[0]), req.str(p[1]); id != "" && nick != "" {
			names[id] = nick
		}
	}
	ft := d.obj("fromToUserID")
	name := func(id string) string { return orElse(names[id], id, "someone") }
	from, to := name(ft.str("fromUserID")), name(ft.str("toUserID"))
	if ft == nil && req != nil { // only the request: from asked to
		from, to = name(req.str("fromUserID")), name(req.str("toUserID"))
	}
	switch ct {
	case 1201:
		return from + " accepted " + to + "'s friend request"
	case 1202:
		return from + " declined " + to + "'s friend request"
	case 1203:
		s := from + " sent " + to + " a friend request"
		if msg := req.str("reqMsg"); msg != "" {
			s += `: "` + msg + `"`
		}
		return s
	case 1204:
		f := d.obj("friend")
		actor := orElse(f.str("ownerUserID"), "someone")
		if op := d.obj("opUser"); op != nil {
			actor = who(op)
		}
		return actor + " added " + who(f.obj("friendUser")) + " as a friend"
	case 1205:
		return from + " removed " + to + " from friends"
	case 1206:
		return from + " set a remark for " + to
	case 1207:
		return from + " blocked " + to
	case 1208:
		return from + " unblocked " + to
	case 1209:
		return from + " updated friend info"
	default: // 1210
		if n := d.count("friendIDs"); n >= 0 {
			return from + " updated the info of " + plural(n, "friend")
		}
		return from + " updated friend info"
	}
}

func revokeLine(d object) string {
	// A revoked message's content names the revoker revokerID; the 2101
	// the server tells devices in (sdkws.RevokeMsgTips) revokerUserID, with
	// the seq and conversation revoked.
	revoker := orElse(d.str("revokerNickname"), d.str("revokerID"), d.str("revokerUserID"), "someone")
	s := revoker + " revoked a message"
	sender := d.str("sourceMessageSendID")
	if sender != "" && sender != d.str("revokerID") {
		s += " from " + orElse(d.str("sourceMessageSenderNickname"), sender)
	}
	return s + about(d)
}

// about names what a revoke or delete notification is about: " (seq 4, 9
// of sg_g1)", "" when it names no seq or conversation.
func about(d object) string {
	cid := d.str("conversationID") // a revoked message's own content names none
	if cid == "" {
		return ""
	}
	var seqs []string
	if seq := d.int("seq"); seq > 0 {
		seqs = append(seqs, strconv.FormatInt(seq, 10))
	}
	var listed []json.RawMessage
	_ = json.Unmarshal(d["seqs"], &listed) // not a list: none
	for _, raw := range listed[:min(len(listed), 5)] {
		if seq, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
			seqs = append(seqs, strconv.FormatInt(seq, 10))
		}
	}
	if len(seqs) == 0 {
		return ""
	}
	s := " (seq " + strings.Join(seqs, ", ")
	if len(listed) > 5 {
		s += ", …"
	}
	return s + " of " + cid + ")"
}

func readLine(d object) string {
	reader := orElse(d.str("markAsReadUserID"), d.str("userID"), "someone")
	if seq := d.int("hasReadSeq"); seq > 0 {
		return reader + " read up to seq " + strconv.FormatInt(seq, 10)
	}
	return reader + " read " + plural(d.count("seqs"), "message")
}

func oaLine(d object) string {
	name, text := d.str("notificationName"), d.str("text")
	switch {
	case name != "" && text != "":
		return name + ": " + text
	case text != "":
		return "[system notice] " + text
	case name != "":
		return "[system notice from " + name + "]"
	}
	return "[system notice]"
}

// span writes a length of time compactly: 45s, 10m, 2h 30m, 3d.
func span(secs int64) string {
	units := []struct {
		n    int64
		name string
	}{{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}}
	var parts []string
	for _, u := range units {
		if secs >= u.n && len(parts) < 2 {
			parts = append(parts, strconv.FormatInt(secs/u.n, 10)+u.name)
			secs %= u.n
		} else if len(parts) > 0 {
			break
		}
	}
	return strings.Join(parts, " ")
}
