package projection

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// AsOfRow is one row of a pull at a moment: the message as pulled then,
// and what of it no evidence dates (its state now is shown there).
type AsOfRow struct {
	Message
	Unknown []string
	Why     []string // --explain's rules; nil without
	// extra: how many of Unknown, first, are of the pull's rules (the
	// window's start, the pull's end), not of the slot (AsOf.Slot).
	extra int
	kind  int // for PullAt's end: rowSent, rowHole, rowLate, rowErased
}

// marked is r with why before its unknowns.
func (r AsOfRow) marked(why []string) AsOfRow {
	r.Unknown = append(slices.Clone(why), r.Unknown...)
	r.extra += len(why)
	return r
}

// MarshalJSON is the message's own JSON (with "explain" when Why is set)
// and one more field, "unknown", always a list (empty when every part of
// the row is dated).
func (r AsOfRow) MarshalJSON() ([]byte, error) {
	b, err := r.Message.MarshalJSON()
	if r.Why != nil {
		b, err = Explained{Message: r.Message, Why: r.Why}.MarshalJSON()
	}
	if err != nil {
		return nil, err
	}
	list := r.Unknown
	if list == nil {
		list = []string{}
	}
	u, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	out := append(b[:len(b)-1:len(b)-1], `,"unknown":`...)
	return append(append(out, u...), '}'), nil
}

// PullAt turns the slots of the viewer's window now, handed in seq order
// from ScanFrom, into the rows the pull at At gave: the pull then ended at
// the last message sent by At, so a hole is held back until a later
// message shows it was inside. The window as it was then: Had says whether
// there was one, Start where it began; a start the viewer's own min_seq
// sets (a clear, or a join) is bounded by the send times around it
// (settle). Flush ends it.
type PullAt struct {
	AsOf
	Window bucket.Window // the window now

	before   int64    // send time of the seq before the window's start
	below    int64    // the latest send time of a message before the window's start
	started  bool     // the start's unknowns are worked out
	startWhy []string // what of the window no evidence dates, for its first row
	start    []string // startWhy, kept after it is said (ThenTally)
	pending  []AsOfRow
	late     int // messages sent after At since the last row
	// Before the window's start now, when the viewer's own min_seq sets
	// it: the rows the pull then gave had that start not come yet (pre),
	// and the window's own (held), kept until settle says which were
	// pulled.
	pre, held []AsOfRow
	settled   bool
	flushed   bool
	unsaid    []string // what no row let out carries
}

// AsOfRow's kinds, for Flush: a row held back is a hole, a message sent
// after At, or a physically deleted slot whose 2102 does not say it was
// sent by At.
const (
	rowSent = iota
	rowHole
	rowLate
	rowErased
)

// ownStart: the window starts where the viewer's own min_seq sets it
// (seq_user.min_seq: their clear, or a late join), which OpenIM sets to
// the max seq then plus one (delete.go:132-142 clearConversation; a join
// alike), so after the seq before it was sent and before it was.
func (p *PullAt) ownStart() bool {
	return p.Window.Cleared() && p.Window.UserMinSeq >= p.Window.SeqMinSeq
}

// ScanFrom is the seq the slots are to be handed from: the conversation's
// start for everyone when the viewer's own min_seq starts the window now
// (a clear leaves the messages in the buckets, and the pull before it
// gave them), else the seq before the window's start, whose send time
// Start needs.
func (p *PullAt) ScanFrom() int64 {
	if p.ownStart() {
		return max(1, p.Window.SeqMinSeq)
	}
	return max(1, p.Window.MinSeq-1)
}

// Add takes the next slot, projected by view, and returns the rows now
// known to be pulled, in seq order; done: no later slot can be (a whole
// bucket of messages sent after At, seqs being given in send order).
func (p *PullAt) Add(st bucket.StoredSlot, view func(bucket.StoredSlot) Message) (rows []AsOfRow, done bool) {
	if st.Seq < p.Window.MinSeq {
		if !st.IsHole() {
			p.below = max(p.below, st.Slot.Msg.SendTime)
			if st.Seq == p.Window.MinSeq-1 {
				p.before = st.Slot.Msg.SendTime
			}
		}
		if !p.ownStart() {
			return nil, false
		}
		rows, done = p.take(st, view)
		p.pre = append(p.pre, rows...)
		return nil, done
	}
	if !p.started {
		p.started = true
		p.startWhy = nil
		if !p.ownStart() {
			p.startWhy = p.Start(p.Window, p.before)
		}
		if _, why := p.Had(); why != nil {
			p.startWhy = append(p.startWhy, why...)
		}
		p.start = slices.Clone(p.startWhy)
	}
	rows, done = p.take(st, view)
	if !p.settled {
		p.held = append(p.held, rows...)
		if st.IsHole() && !done {
			return nil, false
		}
		var hi int64 // the send time of the first message of the window now
		if !st.IsHole() {
			hi = st.Slot.Msg.SendTime
		}
		rows = p.settle(hi)
	}
	return p.first(rows), done
}

// take runs st through the pull's end: the rows it lets out.
func (p *PullAt) take(st bucket.StoredSlot, view func(bucket.StoredSlot) Message) ([]AsOfRow, bool) {
	then, sent, unknown := p.Slot(st)
	kind := rowSent
	switch {
	case st.Erased && !sent:
		// A 2102 dated by At says the slot was sent by then: the pull
		// gave its stand-in (delete.go:72-82, DeleteMsgs with IsSyncOther).
		if e, ok := p.erase(st.Seq); ok && e.At <= p.At {
			sent = true
		} else {
			kind = rowErased
		}
	case !sent && st.IsHole():
		kind = rowHole
	case !sent:
		kind = rowLate
	}
	p.pending = append(p.pending, AsOfRow{Message: view(then), Unknown: unknown, kind: kind})
	if !sent {
		if kind == rowLate {
			p.late++
		}
		return nil, p.late >= bucket.BucketSize
	}
	rows := p.pending
	p.pending, p.late = nil, 0
	return rows, false
}

// first puts the start's unknowns on the first row let out.
func (p *PullAt) first(rows []AsOfRow) []AsOfRow {
	if len(rows) > 0 && p.startWhy != nil {
		rows[0] = rows[0].marked(p.startWhy)
		p.startWhy = nil
	}
	return rows
}

// settle bounds a start the viewer's own min_seq set, given the send time
// of the first message of the window now (0: none), and lets out what the
// pull then gave of the rows before it (pre) and of the window (held).
// The clear that set it came after the seq before the start was sent (so
// after every message before it) and before the start's first message
// was: before the one, the pull gave the rows before the start as they
// were; after the other, none; in between, each is shown marked. (A seq
// is taken as there from its send_time, as everywhere in --at; the server
// allocates it a little later.) The start before the clear is taken to be
// seq.min_seq's: an earlier clear leaves nothing, its min_seq overwritten.
func (p *PullAt) settle(hi int64) []AsOfRow {
	p.settled = true
	pre, held := p.pre, p.held
	p.pre, p.held = nil, nil
	for len(held) > 0 && held[0].Seq < p.Window.MinSeq { // holes before the start, let out with it
		pre, held = append(pre, held[0]), held[1:]
	}
	if !p.ownStart() {
		return held
	}
	joined := p.Start(p.Window, p.before) == nil // an invitee's start, dated
	switch {
	case joined || hi > 0 && hi <= p.At:
		p.pending = slices.DeleteFunc(p.pending, func(r AsOfRow) bool { return r.Seq < p.Window.MinSeq })
		return held
	case p.At < p.below:
		return append(pre, held...)
	}
	why := []string{p.clearWords(hi)}
	for i := range pre {
		pre[i] = pre[i].marked(why)
	}
	for i, r := range p.pending {
		if r.Seq < p.Window.MinSeq {
			p.pending[i] = r.marked(why)
		}
	}
	if len(pre) == 0 && len(held) == 0 {
		p.unsaid = why
	}
	return append(pre, held...)
}

// clearWords say why a row before the window's start now may not have
// been pulled then.
func (p *PullAt) clearWords(hi int64) string {
	when := fmt.Sprintf("after seq %d was sent", p.Window.MinSeq-1)
	if hi > 0 {
		when += fmt.Sprintf(" and before seq %d was", p.Window.MinSeq)
	}
	return fmt.Sprintf("the window starts at seq %d now (%s), %s, %s: pulled then unless it had come by then",
		p.Window.MinSeq, p.Window.StartReason(), unknownCleared, when)
}

// Flush ends the slots: the rows held back that the pull then may have
// given. A physically deleted slot after the last message sent by At,
// whose 2102 is later or missing, may have been sent by then (its send
// time went with it): shown, marked, with the holes before it.
func (p *PullAt) Flush() []AsOfRow {
	if p.flushed {
		return nil
	}
	p.flushed = true
	var rows []AsOfRow
	if !p.settled {
		rows = p.settle(0)
	}
	end := -1
	for i, r := range p.pending {
		if r.kind == rowLate {
			break
		}
		if r.kind == rowErased {
			end = i
		}
	}
	if end >= 0 {
		maybe := []string{fmt.Sprintf("whether seq %d was sent by then is unknown: physically deleted, its send time with it, after the last message sent by then", p.pending[end].Seq)}
		for _, r := range p.pending[:end+1] {
			rows = append(rows, r.marked(maybe))
		}
		p.unsaid = nil
	}
	p.pending = nil
	return p.first(rows)
}

// StartUnsaid is what of the window's start no evidence dates that no
// row has carried: after Flush, a start the moment's pull held no row of
// (every message sent by then lies before the window now) must still be
// said.
func (p *PullAt) StartUnsaid() []string {
	if p.unsaid != nil {
		return p.unsaid
	}
	if p.started {
		return p.startWhy
	}
	if p.ownStart() && p.settled {
		return nil
	}
	return p.Start(p.Window, p.before)
}

// asOfLines open a transcript of a pull at a moment: which moment, how
// many rows show a state no evidence dates, and what no row carries.
func (h TranscriptHead) asOfLines(unknown int, unsaid []string) []string {
	rows := "rows are"
	if unknown == 1 {
		rows = "row is"
	}
	out := []string{
		SingleLine(fmt.Sprintf("As of %s: what %s's pull gave then, read back from the evidence the store keeps",
			h.AsOf.In(h.zone()).Format(time.RFC3339Nano), h.Viewer)),
		fmt.Sprintf("%s %s marked unknown: shown as stored now, no evidence dates a change to them (each row's rule says why)",
			thousands(int64(unknown)), rows),
	}
	if unsaid != nil {
		out = append(out, SingleLine("No row of the window now was pulled then; unknown: "+strings.Join(unsaid, "; ")))
	}
	return out
}
