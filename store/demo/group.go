package demo

import (
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// groupKind says how much of the story a group tells.
type groupKind int

const (
	groupPlain    groupKind = iota // created, then chat
	groupShowcase                  // every content type, membership changes, admin revokes
	groupLong                      // a long history with holes across a bucket edge
)

// group lays out a group chat of n messages (notifications included).
func (p *planner) group(g *groupPlan, n int, kind groupKind) *conv {
	c := newConv(store.GroupChatID(g.ID), bucket.SessionGroup)
	c.group = g
	p.c = c
	active := g.initial()
	created := p.clock
	for _, u := range active {
		c.joined[u] = created
	}
	p.notify(g.Owner, ntGroupCreated, groupCreatedTips{Group: p.groupInfo(g, len(active)),
		OpUser: p.member(g, g.Owner), MemberList: p.members(g, active), OperationTime: created,
		GroupOwnerUser: p.member(g, g.Owner)})
	if kind != groupShowcase { // only the showcase's members come and go
		c.current, c.users, c.membersKnown = active, g.everyone(), true
	}
	count := 1
	if kind == groupShowcase {
		count = p.groupShowcase(g)
		active = append(active, g.Invited)
	}
	// Seqs of the membership changes and the holes, spread over the history.
	events := map[int64]func(){}
	if kind == groupShowcase {
		events[int64(max(count+5, n/5))] = func() { active = p.enter(g, g.Entered, active) }
		events[int64(max(count+10, 3*n/10))] = func() { active = p.quit(g, g.Quit, active) }
		events[int64(max(count+15, 2*n/5))] = func() { active = p.kick(g, g.Admins[0], g.Kicked, active) }
		events[int64(max(count+20, n/2))] = func() { p.mute(g, g.Owner, "bob") }
	}
	othersOf := map[string][]string{} // active without the sender, until active changes
	holeEdge := int64(-1)
	if kind == groupLong && n > 220 {
		holeEdge = int64(max(100, (n/4)/bucket.BucketSize*bucket.BucketSize))
	}
	for count < n && p.err == nil {
		if c.top()+3 == holeEdge {
			for range 6 { // seqs edge-2 .. edge+3: a run of holes across two buckets
				p.hole()
			}
		}
		p.advance(5, 1200)
		if ev := events[c.top()+1]; ev != nil {
			ev()
			clear(othersOf)
		} else if kind == groupLong && count%10000 == 5000 {
			p.announce(g, g.Owner, p.text(g.Owner))
		} else {
			sender := p.pick(active)
			others, ok := othersOf[sender]
			if !ok {
				others = without(active, sender)
				othersOf[sender] = others
			}
			p.randomMessage(sender, others)
			p.maybeRevokeOrDelete(c.last(), active, g)
		}
		count++
	}
	c.current, c.users = active, g.everyone()
	last := c.top()
	for _, u := range c.users {
		lo, hi := max(1, c.minSeq[u]), last
		if end := c.endSeq[u]; end > 0 {
			hi = end
		}
		read := hi
		if !p.chance(30) {
			read = max(lo, hi-int64(p.rng.IntN(60)))
		}
		c.readSeq[u] = c.lastMessageAtOrBefore(read)
	}
	if kind == groupShowcase {
		c.pinned[g.Owner] = true
	}
	p.notes.reads(p, c)
	return c
}

func (p *planner) groupShowcase(g *groupPlan) int {
	say := func(sender string, ct int32, content string) *bucket.MsgData {
		p.advance(30, 900)
		return p.add(sender, bucket.MsgFromUser, ct, content)
	}
	welcome := say(g.Owner, ctText, textContent("Welcome to Project Phoenix 🚀 Launch is in six weeks."))
	at := say(g.Admins[0], ctAtText, atTextContent("请看一下新的时间表 📅", []string{"bob", "lilei"}))
	at.AtUserIDList = []string{"bob", "lilei"}
	p.advance(60, 600)
	p.announce(g, g.Owner, "Launch: March 1st. Daily stand-up at 10:00.")
	say("bob", ctPicture, pictureContent("mockup0042", 1920, 1080, 1834221))
	say("lilei", ctFile, fileContent("file0042", "会议纪要.docx", 48213))
	say("hana", ctVoice, voiceContent("voice0042", 7))
	say("kenji", ctVideo, videoContent("video0042", 95))
	say("olga", ctLocation, locationContent("Office — 5th floor", 121.4737, 31.2304))
	say("lucas", ctCard, cardContent("hana"))
	say("bob", ctMerger, mergerContent("Chat history of Project Phoenix 🚀", []*bucket.MsgData{welcome}))
	say("hana", ctQuote, quoteContent("楽しみです！", welcome))
	say(g.Owner, ctMarkdown, markdownContent("### Launch checklist\n1. freeze\n2. **release notes**\n3. party 🎉"))
	say("kenji", ctAdvancedText, advancedTextContent("See the runbook before Friday",
		[]entity{{Type: "url", Offset: 8, Length: 7, URL: "https://wiki.example.com/runbook"}}))
	say("lucas", ctCustom, customContent(`{"type":"sticker","id":"party-parrot"}`, "sticker", ""))
	secret := say("lilei", ctText, textContent("密码是 hunter2，别告诉别人"))
	p.revokeBy(secret, g.Admins[0], bucket.RoleAdmin, 300)
	say("kenji", ctQuote, quoteContent("？？", secret))
	p.revokeBy(say("hana", ctText, textContent("This is off-topic, sorry")), g.Owner, bucket.RoleOwner, 3600)
	p.revokeBy(say("bob", ctText, textContent("Wrong file, ignore")), "bob", bucket.RoleMember, 20)
	p.deleteFor(say("kenji", ctText, textContent("Reminder: retro at 4pm")), "bob", 900, true)
	p.advance(60, 600)
	p.invite(g, g.Admins[0], g.Invited)
	return int(p.c.top())
}

func (p *planner) notify(op string, ct int32, tips any) *bucket.MsgData {
	return p.add(op, bucket.MsgFromSystem, ct, notificationContent(tips))
}

func (p *planner) groupInfo(g *groupPlan, count int) groupInfo {
	return groupInfo{GroupID: g.ID, GroupName: g.Name, FaceURL: "", OwnerUserID: g.Owner,
		CreateTime: baseTime, MemberCount: count, Introduction: g.Intro, CreatorUserID: g.Owner, GroupType: 2}
}

func (p *planner) member(g *groupPlan, uid string) memberInfo {
	return memberInfo{GroupID: g.ID, UserID: uid, RoleLevel: g.role(uid), JoinTime: p.c.joined[uid],
		Nickname: personByID(uid).Nickname, FaceURL: faceURL(uid), JoinSource: 2}
}

func (p *planner) members(g *groupPlan, uids []string) []memberInfo {
	out := make([]memberInfo, len(uids))
	for i, u := range uids {
		out[i] = p.member(g, u)
	}
	return out
}

func (p *planner) announce(g *groupPlan, op, text string) {
	info := p.groupInfo(g, 0)
	info.Notification = text
	p.notify(op, ntGroupAnnouncement, announcementTips{Group: info, OpUser: p.member(g, op)})
}

func (p *planner) invite(g *groupPlan, op, uid string) {
	p.c.joined[uid] = p.clock
	p.notify(op, ntMemberInvited, memberInvitedTips{Group: p.groupInfo(g, 0), OpUser: p.member(g, op),
		InvitedUserList: []memberInfo{p.member(g, uid)}, OperationTime: p.clock})
	p.c.minSeq[uid] = p.c.top()
}

func (p *planner) enter(g *groupPlan, uid string, active []string) []string {
	p.c.joined[uid] = p.clock
	p.notify(uid, ntMemberEnter, memberEnterTips{Group: p.groupInfo(g, len(active)+1),
		EntrantUser: p.member(g, uid), OperationTime: p.clock})
	p.c.minSeq[uid] = p.c.top()
	return append(active, uid)
}

func (p *planner) quit(g *groupPlan, uid string, active []string) []string {
	p.notify(uid, ntMemberQuit, memberQuitTips{Group: p.groupInfo(g, len(active)-1),
		QuitUser: p.member(g, uid), OperationTime: p.clock})
	p.c.endSeq[uid], p.c.leftAt[uid] = p.c.top(), p.clock
	return without(active, uid)
}

func (p *planner) kick(g *groupPlan, op, uid string, active []string) []string {
	p.notify(op, ntMemberKicked, memberKickedTips{Group: p.groupInfo(g, len(active)-1),
		OpUser: p.member(g, op), KickedUserList: []memberInfo{p.member(g, uid)}, OperationTime: p.clock})
	p.c.endSeq[uid], p.c.leftAt[uid] = p.c.top(), p.clock
	return without(active, uid)
}

func (p *planner) mute(g *groupPlan, op, uid string) {
	p.notify(op, ntMemberMuted, memberMutedTips{Group: p.groupInfo(g, 0), OpUser: p.member(g, op),
		MutedUser: p.member(g, uid), MutedSeconds: 600, OperationTime: p.clock})
}
