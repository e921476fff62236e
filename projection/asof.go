package projection

import (
	"fmt"
	"slices"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// A conversation as a viewer's pull gave it at a moment, read back from
// the store as it is now and the dated evidence it keeps (bucket.History):
// a slot's revoke is undone if its record is later, a delete for the
// viewer if its 2102 (or audit line) is, a read flag if its 2200 is, a
// physical delete if its 2102 is; a message sent later was not there.
// Where a change has no date anywhere, the row keeps its state now and
// says so: unknown stays unknown.

// AsOf reads one viewer's conversation back to a moment.
type AsOf struct {
	At     int64 // unix ms
	Viewer string
	Conv   Conv
	H      bucket.History
}

// Words of what no evidence dates.
const (
	unknownCreated = "when the viewer got this conversation is not stored (no create_time): shown as held"
	unknownErased  = "physically deleted: its content cannot be recovered, nor when it went (no 2102: an admin's DeleteMsgPhysicalBySeq sends none, nor does another tool)"
	unknownRevoke  = "revoked, time unknown: its record has none"
)

func unknownDelete(viewer string) string {
	return "deleted for " + viewer + ", time unknown: no 2102 (deleted without IsSyncSelf, or by another tool)"
}

const unknownRead = "marked read, time unknown: no 2200 (mark_conversation_as_read, set_conversation_has_read_seq, or another tool)"

// unknownErasedLater: a physical delete its 2102 dates after the moment:
// the pull then gave the message as sent, which the store no longer holds.
func unknownErasedLater(e bucket.Evidence) string {
	return fmt.Sprintf("physically deleted at %s by %s (%s): pulled then as sent, but its content cannot be recovered", millis(e.At), e.User, e.Source)
}

// unknownCleared is what an undated clear leaves unknown, OpenIM storing
// no notification of one.
const unknownCleared = "cleared at a time nothing stored gives (OpenIM stores no notification of a clear)"

// Had reports whether the viewer had the conversation at At (their pull
// then held it), with what of that no evidence dates.
func (a AsOf) Had() (bool, []string) {
	switch {
	case !a.H.Owned:
		return false, nil
	case a.H.Created < 0:
		return true, []string{unknownCreated}
	}
	return a.H.Created <= a.At, nil
}

// Slot is st as it was stored at At, sent whether its message had been
// sent by then (a hole has no time: false, and the caller decides by the
// messages around it), unknown what of it no evidence dates.
func (a AsOf) Slot(st bucket.StoredSlot) (then bucket.StoredSlot, sent bool, unknown []string) {
	if st.Erased {
		switch e, ok := a.erase(st.Seq); {
		case !ok:
			unknown = append(unknown, unknownErased)
		case e.At > a.At:
			unknown = append(unknown, unknownErasedLater(e))
		}
	}
	if st.IsHole() {
		return st, false, unknown
	}
	if st.Slot.Msg.SendTime > a.At {
		return st, false, nil
	}
	slot := *st.Slot
	if r := slot.Revoke; r != nil && r.Time > a.At {
		slot.Revoke = nil
	} else if r != nil && r.Time <= 0 {
		unknown = append(unknown, unknownRevoke)
	}
	if slices.Contains(slot.DelList, a.Viewer) {
		switch at, ok := a.first(bucket.EvidenceDelete, st.Seq, func(e bucket.Evidence) bool { return e.User == a.Viewer }); {
		case !ok:
			unknown = append(unknown, unknownDelete(a.Viewer))
		case at > a.At:
			slot.DelList = slices.DeleteFunc(slices.Clone(slot.DelList), func(u string) bool { return u == a.Viewer })
		}
	}
	// Only a single chat's pull carries the flag (rule 1), so only there
	// does its time matter.
	if slot.IsRead && a.single(st) {
		switch at, ok := a.first(bucket.EvidenceRead, st.Seq, func(e bucket.Evidence) bool { return e.User != slot.Msg.SendID }); {
		case !ok:
			unknown = append(unknown, unknownRead)
		case at > a.At:
			slot.IsRead = false
		}
	}
	st.Slot = &slot
	return st, true, unknown
}

func (a AsOf) single(st bucket.StoredSlot) bool {
	t := st.Slot.Msg.SessionType
	if t == 0 {
		t = a.Conv.SessionType
	}
	return t == bucket.SessionSingle
}

// first is the earliest time evidence of kind, matching ok, covers seq.
func (a AsOf) first(kind string, seq int64, ok func(bucket.Evidence) bool) (int64, bool) {
	var at int64
	found := false
	for _, e := range a.H.Evidence {
		if e.Kind == kind && ok(e) && slices.Contains(e.Seqs, seq) && (!found || e.At < at) {
			at, found = e.At, true
		}
	}
	return at, found
}

// erase is the earliest physical delete of seq its 2102 dates.
func (a AsOf) erase(seq int64) (bucket.Evidence, bool) {
	var out bucket.Evidence
	found := false
	for _, e := range a.H.Evidence {
		if e.Kind == bucket.EvidenceErase && slices.Contains(e.Seqs, seq) && (!found || e.At < out.At) {
			out, found = e, true
		}
	}
	return out, found
}

// Lookup is l with every slot as it was at At (a quote of a message
// revoked later was not rewritten then).
func (a AsOf) Lookup(l bucket.Lookup) bucket.Lookup {
	if l == nil {
		return nil
	}
	return func(seq int64) (bucket.StoredSlot, bool) {
		st, ok := l(seq)
		if ok {
			st, _, _ = a.Slot(st)
		}
		return st, ok
	}
}

// Start says what of the viewer's window start at At no evidence dates,
// given the window now and before, the send time of the seq before its
// start (0 unknown). A start past seq 1 set when the viewer got the
// conversation (an invitee's: groupSeqs' setting, not stored) held from
// then on: known when the seq before it was sent before they got it. One
// raised by a cleared history (delete.go clearConversation) has no date:
// OpenIM stores no notification of a clear (pkg/notification/msg.go
// newContentTypeConf has no ClearConversationNotification, so it is sent
// without IsHistory; its 2023 and 2024 versions alike), and a later min_seq
// overwrites the earlier one; the sends around it bound it (PullAt.settle).
func (a AsOf) Start(w bucket.Window, before int64) []string {
	if !w.Cleared() {
		return nil
	}
	// A single chat has no late joiner: its conversation document may be
	// written after its first messages, so its time says nothing of where
	// the window started.
	if a.Conv.SessionType != bucket.SessionSingle && w.UserMinSeq >= w.SeqMinSeq && before > 0 && a.H.Created >= before {
		return nil
	}
	return []string{fmt.Sprintf("the window starts at seq %d now (%s), %s; seqs before it may have been pulled then",
		w.MinSeq, w.StartReason(), unknownCleared)}
}

func millis(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano) }
