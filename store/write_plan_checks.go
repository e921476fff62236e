package store

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/openimrules"
)

// The checks a plan makes of a write's targets, as the server makes them:
// the user's window, each target slot (a hole, already revoked, only in the
// cache) and, for a revoke, openimrules.RevokeRule over the group's members.

// planner reads what a write's checks need; it writes nothing.
type planner struct {
	s *planning
	w *bucket.Window // the user's window, once read
}

// upTo is req with the seqs of a mark read "up to req.UpTo": those after
// the user's read seq (and in their window), refused when there are none
// or more than a write names.
func (pl *planner) upTo(ctx context.Context, req WriteRequest) (WriteRequest, error) {
	ws, err := pl.s.Windows(ctx, req.By, []string{req.Cid}, nil)
	if err != nil {
		return req, err
	}
	w := ws[req.Cid]
	pl.w = w
	from := max(w.ReadSeq+1, w.MinSeq, 1)
	refuse := func(why string) error {
		req.Seqs = []int64{req.UpTo}
		return &TargetError{Action: req.Action, Cid: req.Cid, UserID: req.By, Refused: []RefusedSeqs{{Reason: why, Seqs: req.Seqs}}}
	}
	switch n := req.UpTo - from + 1; {
	case n <= 0:
		return req, refuse(fmt.Sprintf("%s has read up to seq %d already", req.By, w.ReadSeq))
	case n > MaxSeqsPerCommand:
		return req, refuse(fmt.Sprintf("seqs %d-%d are %d messages: a write names at most %d; mark read in steps", from, req.UpTo, n, MaxSeqsPerCommand))
	}
	req.Seqs = make([]int64, 0, req.UpTo-from+1)
	for s := from; s <= req.UpTo; s++ {
		req.Seqs = append(req.Seqs, s)
	}
	return req, nil
}

// CheckTargets refuses, before anything is written, the targets the server
// would refuse when uid does action on seqs of cid: a revoke of a hole (no
// message: "msg not found"), of a seq outside uid's pull window (also "msg
// not found": controller/msg.go GetMsgBySeqs returns nothing there), or of
// a message already revoked (the original revoker stays); a read past the
// last message (as_read.go: "hasReadSeq must not be bigger than maxSeq")
// or by a user who owns no conversation document for cid (the server
// refuses it). Those the server accepts pass, as it writes them: a delete
// for me or a read of seqs before uid's window (delete.go DeleteMsgs and
// as_read.go MarkMsgsAsRead look at no window), a delete over a hole (a
// physically deleted message: DeleteUserMsgsBySeqs adds to its del_list
// all the same). chatlens refuses two more for a write in storage: a
// delete past the last message (its del_list would hide a message not
// sent yet), and a delete or a read of a message only in the Redis cache
// so far (the write would find no stored slot). Revoke, DeleteForMe and
// MarkRead stay the raw state machine; a caller acting for a person checks
// first (Do). Cost: the window (as Windows) and one find per FindBatch
// target buckets; a read reads no bucket unless a cache is configured.
func (s *planning) CheckTargets(ctx context.Context, cid, uid string, seqs []int64, action string) error {
	_, err := (&planner{s: s}).checkTargets(ctx, cid, uid, seqs, action, nil)
	return err
}

// checked is what checkTargets read: the actor's window, the target slots
// it read, and what the write does to the targets it accepts that are not
// plain messages in the window.
type checked struct {
	w     *bucket.Window
	slots map[int64]bucket.StoredSlot
	notes []SeqNote
}

// doneNotes are the notes of a write done in full: the targets' and, for a
// mark read that leaves the read seq where it was, that one.
func (c checked) doneNotes(req WriteRequest) []SeqNote {
	notes := c.notes
	if req.Action == ActionRead && len(req.Seqs) > 0 && slices.Max(req.Seqs) <= c.w.ReadSeq {
		// as_read.go MarkMsgsAsRead sets it only when the last seq is past it.
		notes = append(notes, SeqNote{Seqs: req.Seqs, Note: fmt.Sprintf("%s's read seq stays %d: the server raises it only past that", req.By, c.w.ReadSeq)})
	}
	return notes
}

func addNote(notes []SeqNote, note string, seq int64) []SeqNote {
	for i := range notes {
		if notes[i].Note == note {
			notes[i].Seqs = append(notes[i].Seqs, seq)
			return notes
		}
	}
	return append(notes, SeqNote{Seqs: []int64{seq}, Note: note})
}

// checkTargets is CheckTargets; also, for each target holding a message,
// judge may add a refusal ("" for none).
func (pl *planner) checkTargets(ctx context.Context, cid, uid string, seqs []int64, action string,
	judge func(bucket.StoredSlot) string) (checked, error) {
	s := pl.s
	switch action {
	case ActionRevoke, ActionDelete, ActionRead:
	default:
		return checked{}, fmt.Errorf("check targets: unknown action %q", action)
	}
	w := pl.w
	if w == nil {
		ws, err := s.Windows(ctx, uid, []string{cid}, nil)
		if err != nil {
			return checked{}, err
		}
		w = ws[cid]
	}
	c := checked{w: w}
	var err error
	refused := &TargetError{Action: action, Cid: cid, UserID: uid}
	var visible []int64
	for _, seq := range seqs {
		switch {
		case action == ActionRead && w.NoConversationDoc:
			// as_read.go MarkMsgsAsRead: GetConversation fails first (and
			// OpenIM keeps no conversation document for an n_* conversation).
			refused.add(fmt.Sprintf("%s has no conversation document for %s (not a member, the app admin, or a notification conversation): OpenIM refuses their mark read", uid, cid), seq)
		case action == ActionRevoke && w.UserMaxSeq > 0 && seq > w.UserMaxSeq:
			// revoke.go looks the message up with GetMsgBySeqs, which caps
			// every conversation by seq_user.max_seq (controller/msg.go).
			refused.add(fmt.Sprintf("msg not found: past %s's seq_user.max_seq %d", uid, w.UserMaxSeq), seq)
		case action == ActionRevoke && seq < w.MinSeq:
			refused.add(fmt.Sprintf("msg not found: before %s's first visible seq %d (history cleared)", uid, w.MinSeq), seq)
		case seq > w.MaxSeq && action == ActionDelete:
			// delete.go accepts it; a del_list there would hide the
			// message the seq is given later.
			refused.addStorage(fmt.Sprintf("beyond the last message (max seq %d)", w.MaxSeq), seq)
		case seq > w.MaxSeq:
			refused.add(fmt.Sprintf("beyond the last message (max seq %d)", w.MaxSeq), seq)
		case seq < w.MinSeq:
			// delete.go DeleteMsgs and as_read.go MarkMsgsAsRead write
			// these slots as any other: shared/openim-recorded's server
			// answered 0 and the other side saw them read.
			c.notes = addNote(c.notes, fmt.Sprintf("before %s's first visible seq %d (history cleared): %s", uid, w.MinSeq, beforeWindowDone(action, uid)), seq)
			visible = append(visible, seq)
		default:
			visible = append(visible, seq)
		}
	}
	cacheOnly := s.cache != nil && (action == ActionDelete || action == ActionRead)
	if (action != ActionRead || cacheOnly) && len(visible) > 0 {
		if c.slots, err = s.slotsOf(ctx, cid, visible, w); err != nil {
			return checked{}, err
		}
		var cached []int64
		for _, seq := range visible {
			st := c.slots[seq]
			switch {
			case st.IsHole() && action == ActionRevoke:
				refused.add("no message there (msg not found)", seq)
			case st.IsHole() && action == ActionDelete && seq >= w.MinSeq:
				c.notes = addNote(c.notes, holeDeleteDone(st, uid), seq)
			case st.IsHole():
			case action == ActionRevoke && st.Slot.Revoke != nil:
				refused.add("already revoked by "+st.Slot.Revoke.UserID, seq)
			case action == ActionRevoke && st.Slot.Msg.ContentType == bucket.ContentRevoked:
				// revoke.go RevokeMsg refuses any message shown as 2101.
				refused.add("msg already revoke: it is a revoke notice (content type 2101)", seq)
			case cacheOnly && st.Cached:
				cached = append(cached, seq)
			case judge != nil:
				if why := judge(st); why != "" {
					refused.add(why, seq)
				}
			}
		}
		if err := pl.refuseCacheOnly(ctx, cid, cached, refused); err != nil {
			return checked{}, err
		}
	}
	if len(refused.Refused) > 0 {
		for _, r := range refused.Refused {
			slices.Sort(r.Seqs)
		}
		slices.SortStableFunc(refused.Refused, func(a, b RefusedSeqs) int { return cmp.Compare(a.Seqs[0], b.Seqs[0]) })
		return c, refused
	}
	return c, nil
}

// beforeWindowDone is what a delete or a read of a seq before uid's window
// does, as the server does it.
func beforeWindowDone(action, uid string) string {
	if action == ActionDelete {
		return uid + " is added to its del_list, as the server adds it (" + uid + " is pulled nothing there anyway)"
	}
	return "marked as the server marks it: is_read on a message " + uid + " did not send, so the other side sees it read"
}

// holeDeleteDone is what a delete for me does to a seq with no message
// in uid's window, as the server's DeleteUserMsgsBySeqs does it.
func holeDeleteDone(st bucket.StoredSlot, uid string) string {
	switch {
	case st.Slot == nil:
		return "no message there and no bucket holds it: nothing is written, as the server's update matches nothing"
	case st.Erased:
		return "no message there (physically deleted): " + uid + " is added to its del_list, as the server adds it; nothing changes on screen"
	}
	return "no message there (an empty slot): " + uid + " is added to its del_list, as the server adds it; nothing changes on screen"
}

// refuseCacheOnly refuses the seqs, read from the cache, whose stored slot
// holds no message: Redis has them before MongoDB does, and a delete or
// mark read there would match no stored message (the stored slots of those
// seqs only, read only when some target came from the cache).
func (pl planner) refuseCacheOnly(ctx context.Context, cid string, seqs []int64, refused *TargetError) error {
	if len(seqs) == 0 {
		return nil
	}
	stored, err := pl.s.storedSlots(ctx, cid, seqs, nil)
	if err != nil {
		return err
	}
	for _, seq := range seqs {
		if st, ok := stored[seq]; !ok || st.IsHole() {
			refused.addStorage("only in the Redis cache (MSG_CACHE), not in the store yet: nothing to write to; try again once it is stored", seq)
		}
	}
	return nil
}

// slotsOf reads the slots of seqs and no others, reusing the newest
// bucket the window read already.
func (s *planning) slotsOf(ctx context.Context, cid string, seqs []int64, w *bucket.Window) (map[int64]bucket.StoredSlot, error) {
	out := make(map[int64]bucket.StoredSlot, len(seqs))
	var rest []int64
	for _, seq := range seqs {
		if w.Last != nil && w.Last.Index == bucket.BucketIndex(seq) {
			out[seq] = w.Last.Slots[bucket.SlotIndex(seq)]
		} else {
			rest = append(rest, seq)
		}
	}
	read, err := s.Slots(ctx, cid, rest, w.MaxSeq)
	if err != nil {
		return nil, err
	}
	maps.Copy(out, read)
	return out, nil
}

// revokePlan holds what openimrules.RevokeRule needs for every target of one revoke:
// the revoker's user record and the members of the message's group.
type revokePlan struct {
	req     WriteRequest
	user    *bucket.User
	members map[string]bucket.GroupMember // of the conversation's group; nil for other chats
	role    int32                         // the role of the last decision that allowed
	who     string                        // who may revoke the last message judged, in words
	rule    string                        // the rule of the last decision that allowed
}

// planRevoke reads the group's members once (one round trip, groups only).
func (pl planner) planRevoke(ctx context.Context, req WriteRequest, user *bucket.User) (*revokePlan, error) {
	s := pl.s
	p := &revokePlan{req: req, user: user}
	group := GroupOf(req.Cid)
	if bucket.IsNotificationConversation(req.Cid) {
		_, group, _ = SplitConversationID(req.Cid)
	}
	if group == "" || req.Admin {
		return p, nil
	}
	gms, err := s.backend.GroupMembers(ctx, group)
	if err != nil {
		return nil, err
	}
	p.members = map[string]bucket.GroupMember{}
	for _, m := range gms {
		p.members[m.UserID] = m
	}
	return p, nil
}

// decide is openimrules.RevokeRule's answer for one stored message.
func (p *revokePlan) decide(msg *bucket.MsgData) openimrules.RevokeDecision {
	who := openimrules.Revoker{UserID: p.req.By, Admin: p.req.Admin, MembersKnown: len(p.members) > 0}
	if p.user != nil {
		who.AppMangerLevel = p.user.AppMangerLevel
	}
	var sender *bucket.GroupMember
	if m, ok := p.members[p.req.By]; ok {
		who.Member = &m
	}
	if m, ok := p.members[msg.SendID]; ok {
		sender = &m
	}
	return openimrules.RevokeRule(msg, who, sender)
}

// judge applies openimrules.RevokeRule to one stored message; "" when allowed.
func (p *revokePlan) judge(st bucket.StoredSlot) string {
	d := p.decide(st.Slot.Msg)
	p.who = openimrules.RevokeWho(st.Slot.Msg)
	if !d.Allowed {
		return p.req.By + " may not revoke: " + d.Rule
	}
	p.role, p.rule = d.Role, d.Rule
	return ""
}

// record is the revoke record OpenIM writes: the revoker's ID, the role the
// rule gave (0 for an app admin), and user.nickname only, empty when empty.
func (p *revokePlan) record() bucket.Revoke {
	rev := bucket.Revoke{UserID: p.req.By, Role: p.role}
	if p.req.Admin {
		rev.Role = 0
	}
	if p.user != nil {
		rev.Nickname = p.user.Nickname
	}
	return rev
}
