package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/openimrules"
)

// Done is what Do did: the write's result and, for a revoke, the record
// written; Notes say what was done to the seqs that were not plain
// messages in the user's window (before it, a physically deleted one), and
// to the read seq when a mark read leaves it.
type Done struct {
	WriteResult
	Revoke *bucket.Revoke
	API    *APIDone // set when the server's API made the write
	Notes  []SeqNote
}

// Do makes the write its Plan says, so the checks are those a dry run
// shows: in storage a refusal writes nothing, is one line (NoSuchError,
// *UnknownUserError or *TargetError) and is audited "refused". Through
// the server's API the server decides: the plan's refusal is chatlens's
// prediction of its answer (see applyAPI), and the write is sent whatever
// it says. A read-only store refuses in the write itself, reading nothing
// first.
func (s *writePath) Do(ctx context.Context, req WriteRequest) (Done, error) {
	if s.readOnly {
		// An app admin acting as themselves needs no --admin: the server
		// passes their own token as it passes the admin token.
		req.Admin = req.Admin || s.IsIMAdmin(req.By)
		return s.apply(adminContext(ctx, req), req, bucket.Revoke{UserID: req.By})
	}
	p, err := s.Ask(ctx, req)
	if err != nil {
		return Done{WriteResult: WriteResult{Seqs: req.Seqs}}, err
	}
	return s.Apply(ctx, p)
}

// Ask is Plan for a write an operator will be shown before it is made
// (the UI's dialog, Do): the plan's refusal in storage, or a plan that
// could not be read, is audited here, so every refused write is in the
// audit log whoever asked. A dry run plans with Plan and audits nothing.
func (s *writePath) Ask(ctx context.Context, req WriteRequest) (Plan, error) {
	p, err := s.Plan(ctx, req)
	switch {
	case err != nil: // the check could not read (a lock timeout, a server gone): audited as failed
		r := req
		r.Admin = r.Admin || s.IsIMAdmin(r.By)
		return p, s.auditRefusal(r.Action, r.Cid, r.By, r.Seqs, r.Admin, err)
	case p.Refusal != nil && !p.ViaAPI:
		r := p.Request
		// The refusal as audited: it says so if the log failed too.
		p.Refusal = s.auditRefusal(r.Action, r.Cid, r.By, r.Seqs, r.Admin, p.Refusal)
	}
	return p, nil
}

// Apply makes the write p plans, deciding nothing again: p comes from Ask
// (which audited its refusal), and a plan refused in storage writes
// nothing and returns its refusal. The state machine still refuses a slot
// that changed since in a way it cannot write.
func (s *writePath) Apply(ctx context.Context, p Plan) (Done, error) {
	req := p.Request
	ctx = adminContext(ctx, req)
	var done Done
	var err error
	switch {
	case p.ViaAPI:
		done, err = s.applyAPI(ctx, req, *p.Prediction, p.NoticeCid)
	case p.Refusal != nil:
		return Done{WriteResult: WriteResult{Seqs: req.Seqs}}, p.Refusal
	default:
		rev := bucket.Revoke{UserID: req.By}
		if p.Revoke != nil {
			rev = *p.Revoke
		}
		done, err = s.apply(ctx, req, rev)
	}
	if err == nil {
		done.Notes = p.Notes
	}
	return done, err
}

// adminContext marks ctx when req's operator acts as an app admin.
func adminContext(ctx context.Context, req WriteRequest) context.Context {
	if req.Admin {
		return context.WithValue(ctx, adminKey{}, true)
	}
	return ctx
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

func (s *applying) apply(ctx context.Context, req WriteRequest, rev bucket.Revoke) (Done, error) {
	var res WriteResult
	var err error
	switch req.Action {
	case ActionRevoke:
		res, err = s.Revoke(ctx, req.Cid, req.Seqs, rev)
		return Done{WriteResult: res, Revoke: &rev}, err
	case ActionDelete:
		res, err = s.DeleteForMe(ctx, req.Cid, req.Seqs, req.By)
	case ActionRead:
		res, err = s.MarkRead(ctx, req.Cid, req.Seqs, req.By)
	default:
		err = fmt.Errorf("unknown action %q", req.Action)
	}
	return Done{WriteResult: res}, err
}

// adminKey marks a context whose writes an operator makes as an app admin.
type adminKey struct{}

func actingAsAdmin(ctx context.Context) bool {
	v, _ := ctx.Value(adminKey{}).(bool)
	return v
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

// NotificationNote says, for a write on a deployment devices sync from,
// which notification OpenIM would have sent after it and chatlens does not.
func NotificationNote(action, by string) string {
	switch action {
	case ActionRevoke:
		return "chatlens sends no revoke notification (2101) as OpenIM does after a revoke: devices that already synced these messages keep showing them (a device does not pull a seq it holds again)."
	case ActionDelete:
		return "chatlens sends no delete notification (2102) as OpenIM does after a delete: " + by + "'s other devices that already synced these messages keep showing them."
	case ActionRead:
		return "chatlens sends no read receipt (2200) as OpenIM does after a mark read: other devices keep showing these messages unread."
	}
	return ""
}
