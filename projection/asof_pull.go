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
// from the seq before the window's start, into the rows the pull at At
// gave: the pull then ended at the last message sent by At, so a hole is
// held back until a later message shows it was inside. The window as it
// was then: Had says whether there was one, Start where it began.
type PullAt struct {
	AsOf
	Window bucket.Window // the window now

	before   int64    // send time of the seq before the window's start
	started  bool     // the start's unknowns are worked out
	startWhy []string // what of the window no evidence dates, for its first row
	start    []string // startWhy, kept after it is said (ThenTally)
	pending  []AsOfRow
	late     int // messages sent after At since the last row
}

// ScanFrom is the seq the slots are to be handed from: the seq before the
// window's start now, whose send time Start needs. No stored evidence
// dates a clear, so the pull then is read from where the window starts
// now.
func (p *PullAt) ScanFrom() int64 { return max(1, p.Window.MinSeq-1) }

// Add takes the next slot, projected by view, and returns the rows now
// known to be pulled, in seq order; done: no later slot can be (a whole
// bucket of messages sent after At, seqs being given in send order).
func (p *PullAt) Add(st bucket.StoredSlot, view func(bucket.StoredSlot) Message) (rows []AsOfRow, done bool) {
	if st.Seq < p.Window.MinSeq {
		if !st.IsHole() {
			p.before = st.Slot.Msg.SendTime
		}
		return nil, false
	}
	if !p.started {
		p.started = true
		p.startWhy = p.Start(p.Window, p.before)
		if _, why := p.Had(); why != nil {
			p.startWhy = append(p.startWhy, why...)
		}
		p.start = slices.Clone(p.startWhy)
	}
	then, sent, unknown := p.Slot(st)
	p.pending = append(p.pending, AsOfRow{Message: view(then), Unknown: unknown})
	if !sent {
		if !st.IsHole() {
			p.late++
		}
		return nil, p.late >= bucket.BucketSize
	}
	rows, p.pending, p.late = p.pending, nil, 0
	if p.startWhy != nil {
		rows[0].Unknown = append(p.startWhy, rows[0].Unknown...)
		p.startWhy = nil
	}
	return rows, false
}

// StartUnsaid is what of the window's start no evidence dates that no
// row has carried: after the last slot is added, a start the moment's
// pull held no row of (every message sent by then lies before the window
// now) must still be said.
func (p *PullAt) StartUnsaid() []string {
	if p.started {
		return p.startWhy
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
