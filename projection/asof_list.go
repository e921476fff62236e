package projection

import (
	"fmt"

	"github.com/chatlens/chatlens/store/bucket"
)

// ListedAt is a conversation's row of the viewer's list at a moment: what
// get_conversations_has_read_and_max_seq gave then.
type ListedAt struct {
	MaxSeq, ReadSeq int64
	// ReadAtLeast: the read seq then is known only to be at least ReadSeq
	// (a raise no evidence dates came before or after).
	ReadAtLeast bool
	Latest      int64 // the send time of the newest message then, 0 none
	Unknown     []string
}

// Unread is the app's count then: max seq minus read seq, never below 0.
func (l ListedAt) Unread() int64 { return max(0, l.MaxSeq-l.ReadSeq) }

// ReadWords is the read seq as the list says it: "36", or "≥ 36" when
// known only as a bound.
func (l ListedAt) ReadWords() string {
	if l.ReadAtLeast {
		return fmt.Sprintf("≥ %d", l.ReadSeq)
	}
	return fmt.Sprint(l.ReadSeq)
}

// ListTally takes a conversation's slots in seq order, from seq 1 to the
// end of the viewer's window now, and keeps what the list at At needs:
// the last seq sent by then, and the viewer's own sends (the transfer
// raises a sender's read seq to the seq of what they send:
// msg_transfer.go, userSeqMap[m.SendID] = m.Seq).
type ListTally struct {
	AsOf
	last, latest  int64 // the last message sent by At, its send time
	ownAt, ownAll int64 // the viewer's last own send by At, and ever
	// cleared is, by the index of each clear of the viewer's in
	// H.Evidence, the last seq sent by its time: their read seq after it
	// (delete.go clearConversation: UserSetHasReadSeqs to the max seqs).
	cleared map[int]int64
}

// Add takes the next slot.
func (l *ListTally) Add(st bucket.StoredSlot) {
	if st.IsHole() {
		return
	}
	m := st.Slot.Msg
	if m.SendID == l.Viewer {
		l.ownAll = st.Seq
	}
	for i, e := range l.H.Evidence {
		if e.Kind == bucket.EvidenceClear && e.User == l.Viewer && m.SendTime <= e.At {
			if l.cleared == nil {
				l.cleared = map[int]int64{}
			}
			l.cleared[i] = st.Seq
		}
	}
	if m.SendTime > l.At {
		return
	}
	l.last, l.latest = st.Seq, m.SendTime
	if m.SendID == l.Viewer {
		l.ownAt = st.Seq
	}
}

// Listed is the row at At, given the window now (its end caps the max
// seq: conversation.max_seq of a member who left, set when they did, so
// at the last seq then).
func (l *ListTally) Listed(w bucket.Window) ListedAt {
	out := ListedAt{MaxSeq: min(l.last, w.MaxSeq), ReadSeq: l.ownAt, Latest: l.latest}
	explained := l.ownAll
	for i, e := range l.H.Evidence {
		read := e.ReadSeq
		switch {
		case e.User != l.Viewer:
			continue
		case e.Kind == bucket.EvidenceClear:
			read = l.cleared[i]
		case e.Kind != bucket.EvidenceRead:
			continue
		}
		explained = max(explained, read)
		if e.At <= l.At {
			out.ReadSeq = max(out.ReadSeq, read)
		}
	}
	if w.ReadSeq > explained && w.ReadSeq > out.ReadSeq {
		out.ReadAtLeast = true
		out.Unknown = append(out.Unknown, fmt.Sprintf("read seq %d now, raised from %d at a time no evidence gives "+
			"(a group's mark_conversation_as_read, set_conversation_has_read_seq, or another tool): read seq %s then",
			w.ReadSeq, explained, out.ReadWords()))
	}
	if _, why := l.Had(); why != nil {
		out.Unknown = append(out.Unknown, why...)
	}
	return out
}
