package demo

import (
	"slices"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

func newConv(cid string, kind int32) *conv {
	return &conv{cid: cid, kind: kind, minSeq: map[string]int64{}, endSeq: map[string]int64{},
		readSeq: map[string]int64{}, joined: map[string]int64{}, pinned: map[string]bool{},
		received: map[string][]int64{}, leftAt: map[string]int64{}}
}

// single lays out a single chat of n messages between a and b. The showcase
// chat opens with one message of every content type and the special cases
// (hostile text, revoked, deleted for one side, a quote of a revoked message)
// and has a run of holes in the middle.
func (p *planner) single(a, b string, n int, showcase bool) *conv {
	c := newConv(store.SingleChatID(a, b), bucket.SessionSingle)
	c.pair, c.users = [2]string{a, b}, []string{a, b}
	c.membersKnown = true
	p.c = c
	count := 0
	if showcase {
		count = p.singleShowcase(a, b)
	}
	holeAt := int64(-1)
	if showcase {
		holeAt = max(c.top()+5, int64(n/2))
	}
	for count < n && p.err == nil {
		if c.top()+1 == holeAt {
			p.hole()
			p.hole()
			p.hole()
		}
		p.advance(20, 3*3600)
		sender := c.pair[p.rng.IntN(2)]
		p.randomMessage(sender, nil)
		count++
		p.maybeRevokeOrDelete(c.last(), c.users, nil)
	}
	// One side has nearly caught up; the other has a backlog. The showcase
	// chat leaves its first user with unread messages to show the counts.
	last := c.top()
	c.readSeq[a] = last - int64(p.rng.IntN(4))
	c.readSeq[b] = last - int64(p.rng.IntN(30))
	if showcase {
		c.readSeq[a] = last / 2
	}
	for _, u := range c.users {
		c.readSeq[u] = c.lastMessageAtOrBefore(max(1, c.readSeq[u]))
	}
	p.notes.reads(p, c)
	return c
}

func (p *planner) singleShowcase(a, b string) int {
	c := p.c
	say := func(sender string, ct int32, content string) *bucket.MsgData {
		p.advance(30, 600)
		return p.add(sender, bucket.MsgFromUser, ct, content)
	}
	first := say(a, ctText, textContent("Hi Bob! 👋 Did you get the slides from Friday?"))
	second := say(b, ctText, textContent("Got them, thanks! Reviewing now."))
	say(b, ctPicture, pictureContent("whiteboard01", 1440, 1080, 734003))
	say(a, ctVoice, voiceContent("voice0001", 12))
	say(b, ctVideo, videoContent("demo0001", 34))
	say(a, ctFile, fileContent("file0001", "Q3-report.pdf", 1258291))
	say(b, ctCard, cardContent("wangfang"))
	say(a, ctLocation, locationContent("Blue Bottle Coffee, Shibuya", 139.7016, 35.6580))
	say(b, ctCustom, customContent(`{"type":"poll","question":"Friday lunch?","options":["ramen","tacos"]}`, "poll", ""))
	say(a, ctMerger, mergerContent("Chat history of Alice Chen and Bob Müller", []*bucket.MsgData{first, second}))
	say(b, ctQuote, quoteContent("Yes — the slides look great 👍", first))
	say(a, ctAdvancedText, advancedTextContent("Deadline is Friday, see the tracker",
		[]entity{{Type: "bold", Offset: 0, Length: 8}, {Type: "url", Offset: 24, Length: 11, URL: "https://tracker.example.com"}}))
	say(b, ctMarkdown, markdownContent("## Notes\n- ship **v2.1**\n- update `CHANGELOG.md`"))
	// Untrusted text: escape sequences that must never reach a terminal raw.
	say(a, ctText, textContent("copied from my terminal: \x1b[31mERROR\x1b[0m \x1b]0;pwned\x07 weird, right?"))
	oops := say(a, ctText, textContent("Oops, that was meant for another chat"))
	p.revokeBy(oops, a, 0, 45)
	say(b, ctText, textContent("没问题 😄 周末愉快！"))
	p.deleteFor(say(a, ctText, textContent("Note to self: buy milk")), a, 120, true)
	// b deletes two messages for himself: one with IsSyncSelf (a 2102
	// dates it), one without (its time is unknown), for `dump --at`.
	p.deleteFor(say(b, ctText, textContent("Sorry, typo in the last one")), b, 60, false)
	both := say(a, ctText, textContent("Don't forward this please 🙏"))
	p.revokeBy(both, a, 0, 90)
	p.deleteFor(both, b, 1800, true)
	say(b, ctQuote, quoteContent("What did you say here?", oops))
	return int(c.top())
}

// revokeBy plans a revoke of m by uid with role, after m by some seconds.
func (p *planner) revokeBy(m *bucket.MsgData, uid string, role int32, afterSec int64) {
	rev := bucket.Revoke{Role: role, UserID: uid, Nickname: personByID(uid).Nickname, Time: m.SendTime + afterSec*1000}
	p.c.revokes = append(p.c.revokes, revokePlan{seq: m.Seq, rev: rev})
	p.notes.revoked(p.c, m, rev)
}

// deleteFor plans a delete of m for uid, after m by some seconds; sync:
// made with IsSyncSelf, so a 2102 tells of it.
func (p *planner) deleteFor(m *bucket.MsgData, uid string, afterSec int64, sync bool) {
	p.c.deletes = append(p.c.deletes, deletePlan{seq: m.Seq, uid: uid})
	if sync {
		p.notes.deleted(p.c, uid, m.Seq, m.SendTime+afterSec*1000)
	}
}

// maybeRevokeOrDelete sometimes withdraws a user message: by its sender, or
// in groups by an admin when the sender is an ordinary member; and sometimes
// hides it from one participant.
func (p *planner) maybeRevokeOrDelete(m *bucket.MsgData, audience []string, g *groupPlan) {
	if m.MsgFrom != bucket.MsgFromUser {
		return
	}
	switch {
	case p.chance(1.2):
		role := int32(0)
		if g != nil {
			role = g.role(m.SendID)
		}
		p.revokeBy(m, m.SendID, role, int64(10+p.rng.IntN(100)))
	case g != nil && g.role(m.SendID) == bucket.RoleMember && p.chance(0.6):
		admin := p.pick(append([]string{g.Owner}, g.Admins...))
		p.revokeBy(m, admin, g.role(admin), int64(600+p.rng.IntN(86400)))
	case p.chance(1.5):
		// half of them with IsSyncSelf, drawn apart: the rest of the plan
		// is the same either way
		p.deleteFor(m, p.pick(audience), int64(10+p.notes.rng.IntN(86400)), p.notes.rng.IntN(2) == 0)
	}
}

// lastMessageAtOrBefore is the highest seq up to seq holding a message, so
// read positions never point at a hole.
func (c *conv) lastMessageAtOrBefore(seq int64) int64 {
	for s := min(seq, c.top()); s >= 1; s-- {
		if !slices.Contains(c.holes, s) {
			return s
		}
	}
	return 0
}
