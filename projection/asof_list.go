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
	// (a raise no evidence dates came before or after); ReadWhy says why.
	ReadAtLeast bool
	ReadWhy     []string
	Latest      int64 // the send time of the newest message then, 0 none
	// Unknown is what of the row no evidence dates: ReadWhy, then the rest.
	Unknown []string
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
// msg_transfer.go, userSeqMap[m.SendID] = m.Seq), which a physical delete
// leaves no trace of.
type ListTally struct {
	AsOf
	// Before is the seq before the window's start now (0: seq 1 starts
	// it), whose send time says whether an invitee's start explains it
	// (AsOf.Start).
	Before        int64
	beforeAt      int64 // Before's send time, 0 not stored
	last, latest  int64 // the last message sent by At, its send time
	ownAt, ownAll int64 // the viewer's last own send by At, and ever
	// The physically deleted seqs (any could be an own send), each with
	// whether a message sent after At came before it (so it was too).
	erased []erasedSeq
	late   bool // a message sent after At was seen
}

type erasedSeq struct {
	seq  int64
	late bool
}

// Add takes the next slot.
func (l *ListTally) Add(st bucket.StoredSlot) {
	if st.Erased {
		l.erased = append(l.erased, erasedSeq{st.Seq, l.late})
	}
	if st.IsHole() {
		return
	}
	m := st.Slot.Msg
	if st.Seq == l.Before {
		l.beforeAt = m.SendTime
	}
	if m.SendID == l.Viewer {
		l.ownAll = st.Seq
	}
	if m.SendTime > l.At {
		l.late = true
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
	last, maybeLast, erasedAt, explained := l.erasedBy(w)
	out := ListedAt{MaxSeq: min(last, w.MaxSeq), ReadSeq: l.ownAt, Latest: l.latest}
	explained = max(explained, l.ownAll)
	for _, e := range l.H.Evidence {
		if e.User != l.Viewer || e.Kind != bucket.EvidenceRead {
			continue
		}
		explained = max(explained, e.ReadSeq)
		if e.At <= l.At {
			out.ReadSeq = max(out.ReadSeq, e.ReadSeq)
		}
	}
	// Raises that may have come by At, none dated: an undated clear's (to
	// the seq before the window's start, once that was sent) and an own
	// send's at a seq physically deleted since. The read seq now caps
	// them: it only rises (seq_user.go SetUserReadSeq).
	var maybe []string
	cleared := l.undatedClear(w)
	if cleared {
		explained = max(explained, w.MinSeq-1)
	}
	if r := min(w.MinSeq-1, w.ReadSeq); cleared && w.MinSeq-1 <= last && r > out.ReadSeq {
		maybe = append(maybe, fmt.Sprintf("the window starts at seq %d now (%s), %s: a clear raises the clearer's read seq to the last seq then, %d "+
			"(delete.go clearConversation, UserSetHasReadSeqs)", w.MinSeq, w.StartReason(), unknownCleared, r))
	}
	if s := erasedAt; s > out.ReadSeq {
		maybe = append(maybe, fmt.Sprintf("seq %d was physically deleted: an own send there would have raised the read seq", s))
	}
	if w.ReadSeq > explained && w.ReadSeq > out.ReadSeq {
		maybe = append(maybe, fmt.Sprintf("read seq %d now, raised from %d at a time no evidence gives "+
			"(a group's mark_conversation_as_read, set_conversation_has_read_seq, or another tool)", w.ReadSeq, explained))
	}
	if maybe != nil {
		out.ReadAtLeast = true
		maybe[len(maybe)-1] += ": read seq " + out.ReadWords() + " then"
		out.ReadWhy = maybe
		out.Unknown = append(out.Unknown, maybe...)
	}
	if maybeLast > out.MaxSeq {
		out.Unknown = append(out.Unknown, fmt.Sprintf("max seq %d then, or up to %d: seq %d was physically deleted, its send time with it, "+
			"after the last message sent by then, and no 2102 dates it before then", out.MaxSeq, maybeLast, maybeLast))
	}
	if _, why := l.Had(); why != nil {
		out.Unknown = append(out.Unknown, why...)
	}
	return out
}

// erasedBy reads the physically deleted seqs of the window w back to At:
// the last seq sent by then (a deleted one counts when a later message
// sent by then, or its 2102 dated by then, says it was: delete.go:72-82),
// the last deleted one that may have been sent by then too, the last
// deleted one sent or maybe sent by then that an own send could have made
// the read seq (at most the read seq now: it only rises), and the same of
// every deleted seq ever.
func (l *ListTally) erasedBy(w bucket.Window) (last, maybeLast, erasedAt, explained int64) {
	last = l.last
	for _, e := range l.erased {
		if e.seq > w.MaxSeq {
			continue
		}
		sent := e.seq < l.last
		if ev, ok := l.erase(e.seq); ok && ev.At <= l.At {
			sent, last = true, max(last, e.seq)
		}
		maybe := !sent && !e.late
		if maybe {
			maybeLast = max(maybeLast, e.seq)
		}
		if e.seq <= w.ReadSeq {
			explained = max(explained, e.seq)
			if sent || maybe {
				erasedAt = max(erasedAt, e.seq)
			}
		}
	}
	return last, maybeLast, erasedAt, explained
}

// undatedClear reports a window now that starts where the viewer's own
// clear, which nothing stored dates, set it (seq_user.min_seq; an
// invitee's start is not one: AsOf.Start).
func (l *ListTally) undatedClear(w bucket.Window) bool {
	if !w.Cleared() || w.UserMinSeq < w.SeqMinSeq {
		return false
	}
	before := l.beforeAt
	if l.Before != w.MinSeq-1 {
		before = 0
	}
	return l.Start(w, before) != nil
}
