package store

import (
	"fmt"

	"github.com/chatlens/chatlens/store/bucket"
)

// Lines are a plan in words: what would be written or sent, who may
// revoke, what is refused and why, the read seq's move, the notes and the
// notifications. The UI's confirm dialog and `--dry-run` both show these
// lines, so the two cannot say different things of one write.
func (p Plan) Lines() []string {
	r := p.Request
	as := r.By
	if r.Admin {
		as += " as an app admin"
	}
	var lines []string
	seqs := FormatSeqs(p.Write)
	switch {
	case len(p.Write) == 0:
	case p.ViaAPI:
		lines = append(lines, fmt.Sprintf("would send %s of seq %s of %s by %s to the OpenIM API", r.Action, seqs, r.Cid, as))
	case r.Action == ActionRevoke:
		lines = append(lines, fmt.Sprintf("would revoke seq %s of %s by %s (role %s)", seqs, r.Cid, as, p.roleWords()))
	case r.Action == ActionDelete:
		lines = append(lines, fmt.Sprintf("would delete seq %s of %s for %s", seqs, r.Cid, as))
	case r.Action == ActionRead:
		lines = append(lines, fmt.Sprintf("would mark seq %s of %s read by %s", seqs, r.Cid, as))
	}
	if p.RevokeWho != "" {
		lines = append(lines, p.RevokeWho)
	}
	if p.RevokeRule != "" {
		lines = append(lines, r.By+" may: "+p.RevokeRule)
	}
	if p.Prediction != nil {
		lines = append(lines, "expected: "+p.Prediction.String())
	} else {
		for _, rs := range p.Refused {
			lines = append(lines, "refused: seq "+FormatSeqs(rs.Seqs)+": "+rs.Reason)
		}
	}
	if p.ReadSeq != nil {
		lines = append(lines, fmt.Sprintf("%s's read seq: %d -> %d", r.By, p.ReadSeq.Before, p.ReadSeq.After))
	}
	for _, n := range p.Notes {
		lines = append(lines, "note: "+n.String())
	}
	switch {
	case !p.ViaAPI && len(p.Write) > 0:
		lines = append(lines, "notifications: none: a write in storage reaches no device")
	case p.ViaAPI && len(p.Notices) == 0 && p.NoticeCid == "":
		lines = append(lines, "notifications: none expected (no notification conversation)")
	case p.ViaAPI && len(p.Notices) == 0:
		lines = append(lines, "notifications: none expected")
	}
	for _, n := range p.Notices {
		lines = append(lines, fmt.Sprintf("expected notification: %d in %s for seq %s (the server sends it, chatlens predicts)",
			n.Type, p.NoticeCid, FormatSeqs(n.About)))
	}
	if p.ViaAPI {
		lines = append(lines, "note: "+apiNote)
	}
	if p.SessionNote != "" {
		lines = append(lines, "note: "+p.SessionNote)
	}
	return lines
}

// roleWords is the role a revoke in storage records, in words: in a
// single chat, but for an app admin, the user's app_manger_level.
func (p Plan) roleWords() string {
	role := bucket.RoleName(p.Revoke.Role)
	if kind, _, _ := SplitConversationID(p.Request.Cid); kind == bucket.SessionSingle && !p.Request.Admin {
		role = fmt.Sprintf("%d = user.app_manger_level", p.Revoke.Role)
	}
	return role
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
