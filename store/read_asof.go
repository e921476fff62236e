package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// What the store keeps of when a viewer's view of a conversation changed,
// for `--at` (projection.AsOf reads it back to a moment). A slot holds its
// state now; the times are elsewhere: the conversation document's
// create_time, the notifications the server stored for a delete (2102:
// into the deleter's n_<u>_<u> for a delete for me with IsSyncSelf, into
// the chat's notification conversation for a physical one with
// IsSyncOther: delete.go DeleteMsgs) and a read mark (2200: as_read.go
// sendMarkAsReadNotification), and this operator's audit log. A revoke's
// time is in its slot's record, a message's in its send_time. A cleared
// history has none: OpenIM stores no notification of a clear.

// History gathers viewer's dated evidence of cid, the audit log's from the
// file at auditPath (read only: a reader creates no log; none there, no
// lines). Cost: the viewer's conversation documents, the windows of the
// notification conversations the evidence is told in, and those
// conversations read whole (every notification there may be about cid);
// for an n_* conversation itself, only the conversation documents.
func (s *lookupReads) History(ctx context.Context, viewer, cid, auditPath string) (bucket.History, error) {
	h := bucket.History{Viewer: viewer, Cid: cid, Created: -1, CreatedFrom: "conversation.create_time"}
	convs, err := s.backend.Conversations(ctx, viewer)
	if err != nil {
		return h, err
	}
	owned := map[string]bucket.Conversation{}
	for _, c := range convs {
		owned[c.ConversationID] = c
		mine := c.ConversationID == cid || bucket.IsNotificationConversation(cid) && NotificationConversationID(c.ConversationID) == cid
		if !mine {
			continue
		}
		// Of several chats told in one n_* conversation, the first got.
		if !h.Owned || c.CreateTime < h.Created {
			h.Created = c.CreateTime
		}
		h.Owned = true
	}
	if h.Owned && h.Created == 0 {
		h.Created = -1 // a document without create_time: when is not stored
		if err := s.joinedAt(ctx, &h); err != nil {
			return h, err
		}
	}
	if cid == SelfNotificationID(viewer) {
		h.Owned, h.Created = true, 0
	}
	if bucket.IsNotificationConversation(cid) {
		return h, nil
	}
	// A read mark of cid is told in its notification conversation, or in
	// the reader's own for a group's mark_conversation_as_read (as_read.go:
	// SingleChatType, from the user to themselves); a delete for me in the
	// deleter's own.
	ncids := []string{SelfNotificationID(viewer)}
	if n := NotificationConversationID(cid); n != "" && n != ncids[0] {
		ncids = append(ncids, n)
	}
	ws, err := s.windows(ctx, viewer, ncids, owned, nil, true)
	if err != nil {
		return h, err
	}
	for _, ncid := range ncids {
		end := ws[ncid].EndSeq
		if end == 0 {
			continue
		}
		log, err := s.noticesIn(ctx, ncid, end, 1, nil)
		if err != nil {
			return h, err
		}
		for _, n := range slices.Backward(log.notices) { // oldest first
			if e, ok := noticeEvidence(ncid, cid, ncid != SelfNotificationID(viewer), n); ok {
				h.Evidence = append(h.Evidence, e)
			}
		}
	}
	trail, err := auditTrailIn(auditPath, s.operator)
	if err != nil {
		return h, err
	}
	for _, e := range trail {
		if ev, ok := auditEvidence(cid, e); ok {
			h.Evidence = append(h.Evidence, ev)
		}
	}
	return h, nil
}

// joinedAt dates a group conversation whose document has no create_time
// by the viewer's group_member.join_time (OpenIM creates a joiner's
// conversation as they join: the recorded run's invitee got it 20 ms
// after). Cost: one round trip.
func (s *lookupReads) joinedAt(ctx context.Context, h *bucket.History) error {
	group := GroupOf(h.Cid)
	if group == "" || bucket.IsNotificationConversation(h.Cid) {
		return nil
	}
	members, err := s.backend.GroupMembers(ctx, group)
	if err != nil {
		return err
	}
	for _, m := range members {
		if m.UserID == h.Viewer && !m.JoinTime.IsZero() {
			h.Created, h.CreatedFrom = m.JoinTime.UnixMilli(), "group_member.join_time"
		}
	}
	return nil
}

// auditTrailIn is AuditTrail of the log at path, which the store may not
// write to: operator's lines.
func auditTrailIn(path, operator string) ([]AuditEntry, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAuditTrail(f, operator)
}

// noticeEvidence reads notice n of ncid as a delete or read mark of cid;
// chat: ncid is cid's notification conversation, where a 2102 is of a
// physical delete (delete.go DeleteMsgs, IsSyncOther: sent from the
// deleter to the other side, or to the group).
func noticeEvidence(ncid, cid string, chat bool, n notice) (bucket.Evidence, bool) {
	if n.tips.ConversationID != cid {
		return bucket.Evidence{}, false
	}
	e := bucket.Evidence{At: n.sendTime, Seqs: n.tips.Seqs, Source: fmt.Sprintf("%d in %s seq %d", n.typ, ncid, n.seq)}
	switch n.typ {
	case bucket.ContentDeleteNotice:
		e.Kind, e.User = bucket.EvidenceDelete, n.tips.UserID
		if chat {
			e.Kind = bucket.EvidenceErase
		}
	case bucket.ContentReadReceipt:
		e.Kind, e.User, e.ReadSeq = bucket.EvidenceRead, n.tips.MarkAsReadUserID, n.tips.HasReadSeq
		for _, seq := range n.tips.Seqs {
			e.ReadSeq = max(e.ReadSeq, seq)
		}
	default:
		return bucket.Evidence{}, false
	}
	return e, true
}

// auditEvidence reads an outcome line of this operator's audit log as a
// delete or read mark of cid, with the seqs it surely changed.
func auditEvidence(cid string, a AuditEntry) (bucket.Evidence, bool) {
	if a.Conversation != cid || a.As == "" {
		return bucket.Evidence{}, false
	}
	seqs := []int64(a.Seqs)
	switch a.Result {
	case ResultOK, ResultOKCacheStale:
	case ResultPartial:
		seqs = a.Applied
	default:
		return bucket.Evidence{}, false
	}
	e := bucket.Evidence{At: a.Time.UnixMilli(), Source: "audit log", User: a.As, Seqs: seqs}
	switch a.Action {
	case ActionDelete:
		e.Kind = bucket.EvidenceDelete
	case ActionRead:
		e.Kind = bucket.EvidenceRead
		if len(seqs) > 0 {
			e.ReadSeq = slices.Max(seqs)
		}
	default:
		return bucket.Evidence{}, false
	}
	return e, true
}

// HistoryLogged is History with this store's own audit log, for a caller
// that does not know its file (the UI).
func (s *lookupReads) HistoryLogged(ctx context.Context, viewer, cid string) (bucket.History, error) {
	path := ""
	if s.audit != nil {
		path = s.audit.path
	}
	return s.History(ctx, viewer, cid, path)
}
