package projection

import (
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
)

// Conv is the conversation a slot belongs to.
type Conv struct {
	ID          string // conversation ID; names the bucket when View gets no docID
	SessionType int32  // used when a message carries no session_type of its own
}

// Message is what one viewer sees at one seq; its JSON is OpenIM's pull of
// it (msgjson.go). MsgData is the message as the viewer gets it: Seq is the
// slot's seq, Content "" when deleted for the viewer (the pull has null),
// IsRead the slot's flag where the viewer has one (rule 1); a hole has only
// Seq, Status and the send time the pull gives it. Slices and maps are
// shared with the stored slot: treat them as read-only. The fields after
// MsgData are for drawing.
type Message struct {
	bucket.MsgData
	DocID string
	Index int // slot index inside the bucket

	// What the UI needs to draw each case distinctly.
	Hole             bool           // no message at this seq (rule 4)
	DeletedForViewer bool           // viewer is in del_list (rule 2)
	Revoked          bool           // a revoke record replaced the content (rule 3)
	Revoke           *bucket.Revoke // the stored revoke record, also on holes; read-only
	Problem          string         // why the slot breaks the contract; "" when it does not
	BucketProblem    string         // why its bucket breaks the contract as a whole (ViewIn); "" when it does not
	Cached           bool           // the slot came from the cache layer
	Viewer           string
	// QuoteResolved is true when rule 5 was applied: Content is the quote as
	// OpenIM returns it (rewritten only if the quoted slot is revoked or the
	// quoted seq is 0 or less). When false (the quoted slot was needed and
	// not at hand) Content keeps the quote as stored, unverified, and
	// Summary does not show the quoted message's text: it may be revoked.
	QuoteResolved bool

	// The stored message before projection, for the inspector.
	RawContentType int32
	RawContent     string
	RawSeq         int64 // msg.seq as stored; may disagree with Seq (see Problem)
	DelList        []string
	SlotIsRead     bool // the stored slot flag, whatever the session type

	// Where the slot came from, for Explain: a bucket not stored at all, a
	// slot the bucket lacks, a stored msg (a hole may still have one, with
	// send_time 0), a cached slot the backend read found no message for.
	BucketMissing, SlotAbsent, HasMsg bool
	Unstored                          bool
}

// OpenIM content types, session types and statuses used by the projection.
const (
	Text            int32 = 101
	Picture         int32 = 102
	Voice           int32 = 103
	Video           int32 = 104
	File            int32 = 105
	AtText          int32 = 106
	Merger          int32 = 107
	Card            int32 = 108
	Location        int32 = 109
	Custom          int32 = 110
	Typing          int32 = 113
	Quote           int32 = 114
	Face            int32 = 115
	AdvancedText    int32 = 117
	Markdown        int32 = 118
	CustomNoTrigger int32 = 119
	CustomOnline    int32 = 120

	NotificationBegin int32 = 1000
	NotificationEnd   int32 = 4999
	RevokeNotice      int32 = 2101 // the content type a revoked message is shown with
	DeleteNotice      int32 = 2102
	ReadReceipt       int32 = 2200
)

// isNotification: content types 1000-4999 are notifications, whose content
// is {"detail": "<JSON string>"}.
func isNotification(ct int32) bool { return ct >= NotificationBegin && ct <= NotificationEnd }

// View projects stored slot s for viewer, following OPENIM.md's read-time
// rules in order. docID names the bucket ("" derives it from conv.ID). quoted
// serves rule 5 (the quoted seq's slot decides whether OpenIM rewrites the
// quote); it may be nil or miss, and then the quote is left unresolved (see Message.QuoteResolved):
// store.QuotedSlots reads the slots QuotedSeqs names to resolve every quote.
func View(s bucket.StoredSlot, docID string, viewer string, conv Conv, quoted bucket.Lookup) Message {
	m := Message{DocID: docID, Problem: s.Problem, Cached: s.Cached, Viewer: viewer,
		Unstored: s.Unstored, BucketMissing: s.Slot == nil && s.Problem == "", SlotAbsent: s.Slot == nil && s.Problem != "",
		HasMsg: s.Slot != nil && s.Slot.Msg != nil}
	m.Seq = s.Seq
	if s.Seq >= 1 {
		m.Index = bucket.SlotIndex(s.Seq)
		if docID == "" && conv.ID != "" {
			m.DocID = bucket.DocIDForSeq(conv.ID, s.Seq)
		}
	}
	if s.Slot != nil {
		m.DelList, m.Revoke, m.SlotIsRead = s.Slot.DelList, s.Slot.Revoke, s.Slot.IsRead
	}
	// Rule 4: nothing to show, whatever else the slot holds. A stand-in
	// read from the cache carries the send time OpenIM gave it; for any
	// other hole the caller fills it in (store.HoleSendTimes).
	if s.IsHole() {
		m.Hole, m.Status = true, bucket.StatusDeleted
		if s.Slot != nil && s.Slot.Msg != nil && s.Slot.Msg.IsStandIn() {
			m.SendTime = s.Slot.Msg.SendTime
		}
		return m
	}
	msg := s.Slot.Msg
	m.MsgData = *msg
	m.Seq = s.Seq
	m.RawContentType, m.RawContent, m.RawSeq = msg.ContentType, msg.Content, msg.Seq
	if m.SessionType == 0 {
		m.SessionType = conv.SessionType
	}
	// Rule 1: the slot flag is the real one, and only single chats have it.
	m.IsRead = s.Slot.IsRead && m.SessionType == bucket.SessionSingle
	// Rule 2.
	if deletedFor(s.Slot, viewer) {
		m.DeletedForViewer = true
		m.Content, m.Status = "", bucket.StatusDeleted
	}
	// Rule 3: revoke wins on content; a deleted status stays.
	if s.Slot.Revoke != nil {
		m.Revoked = true
		m.ContentType = RevokeNotice
		m.Content = RevokeContent(msg, s.Slot.Revoke)
		return m
	}
	// Rule 5.
	if m.ContentType == Quote && !m.DeletedForViewer {
		m.Content, m.QuoteResolved = projectQuote(m.Content, viewer, quoted)
	}
	return m
}

// deletedFor reports viewer in the slot's del_list. An empty viewer is
// nobody in particular and matches no entry.
func deletedFor(slot *bucket.Slot, viewer string) bool {
	return viewer != "" && slot != nil && slices.Contains(slot.DelList, viewer)
}

// Same reports whether two projections show the same thing (the compare view
// highlights rows where it is false). Viewer and raw fields are ignored.
func Same(a, b Message) bool {
	if a.Hole || b.Hole {
		return a.Hole == b.Hole && a.Seq == b.Seq && a.Problem == b.Problem
	}
	return a.Seq == b.Seq && a.DocID == b.DocID && a.Index == b.Index &&
		a.SendID == b.SendID && a.RecvID == b.RecvID && a.GroupID == b.GroupID &&
		a.SenderNickname == b.SenderNickname && a.SessionType == b.SessionType &&
		a.ContentType == b.ContentType && a.Content == b.Content && a.Status == b.Status &&
		a.IsRead == b.IsRead && a.SendTime == b.SendTime &&
		a.ClientMsgID == b.ClientMsgID && a.ServerMsgID == b.ServerMsgID &&
		a.DeletedForViewer == b.DeletedForViewer && a.Revoked == b.Revoked && a.Problem == b.Problem
}
