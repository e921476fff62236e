package timeline

import (
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// Jumps: to a seq or a date typed at :. Both are keys of the model's
// queue: they jump in the window the keys before them left, a date once
// the read that finds its seq lands (dateFound).

// dateFoundMsg is the answer of a date jump's read.
type dateFoundMsg struct {
	req    common.ReqID
	landed model.Landed
}

// JumpForms are the forms : takes, as a person types them.
const JumpForms = "12345, 2024-06-15 or 2024-06-15 14:30; at 2024-06-15 14:30 for a moment"

// Jump goes to a seq ("123") or to the first message sent at or after a
// date ("2024-05-01", "2024-05-01 14:30", in the display time zone).
func (mv Moves) Jump(input string) tea.Cmd {
	t := mv.t
	input = strings.TrimSpace(input)
	if input == "" {
		return nil
	}
	if at, ok := strings.CutPrefix(input, MomentPrefix); ok {
		return t.Moment().Set(at)
	}
	if seq, err := strconv.ParseInt(input, 10, 64); err == nil {
		return t.load.press(model.Key{Kind: model.SeqJump, Seq: seq})
	}
	if when, _, ok := store.ParseTypedTime(input, t.e.Loc); ok {
		return t.load.afterSaying("looking for "+input+"…", false, t.tl.Press(model.Key{Kind: model.DateJump, At: when.UnixMilli()}))
	}
	return say(t, fmt.Sprintf("%q is neither a seq nor a date (%s)", projection.SingleLine(input), JumpForms), true)
}

// findDate reads the first seq rd.From..rd.To sent at or after rd.At
// (seqAtOrAfter).
func findDate(e *common.Common, req common.ReqID, cid string, rd model.Read) tea.Cmd {
	return func() tea.Msg {
		found, err := seqAtOrAfter(e, cid, rd.From, rd.To, rd.At)
		return dateFoundMsg{req: req, landed: model.Landed{Read: rd, Seq: found, Err: err}}
	}
}

// seqAtOrAfter is the first seq of minSeq..maxSeq sent at or after target,
// 0 if none, by a binary search over buckets (send times grow with seq),
// one find per probe.
func seqAtOrAfter(e *common.Common, cid string, minSeq, maxSeq, target int64) (int64, error) {
	read := func(i int64) (*bucket.Bucket, error) {
		bs, err := e.Store.Buckets(e.Ctx, cid, []int64{i}, maxSeq)
		if err != nil {
			return nil, err
		}
		return bs[0], nil
	}
	// firstAtOrAfter is the first seq of b at or after target, 0 if none.
	firstAtOrAfter := func(b *bucket.Bucket) int64 {
		for _, s := range b.Slots {
			if !s.IsHole() && s.Seq >= minSeq && s.Seq <= maxSeq && s.Slot.Msg.SendTime >= target {
				return s.Seq
			}
		}
		return 0
	}
	lo, hi := bucket.BucketIndex(minSeq), bucket.BucketIndex(maxSeq)
	found := int64(0)
	for lo <= hi {
		mid := lo + (hi-lo)/2
		b, err := read(mid)
		if err != nil {
			return 0, err
		}
		if seq := firstAtOrAfter(b); seq > 0 {
			found, hi = seq, mid-1
		} else {
			lo = mid + 1
		}
	}
	return found, nil
}

// Moves are the page's cursor moves that come from outside its keys: a
// seq or date typed, a click, the wheel, a burst of keys.
type Moves struct{ t *Model }

// Moves are the page's moves asked by the root.
func (t *Model) Moves() Moves { return Moves{t} }

// To moves the cursor to seq (a click, a message found by ID).
func (mv Moves) To(seq int64) tea.Cmd {
	t := mv.t
	t.newest = nil // not opened: what the list read is not needed
	return t.Moves().jumpTo(seq)
}

// Scroll moves the cursor by delta rows (the mouse wheel), each a key.
func (mv Moves) Scroll(delta int) tea.Cmd {
	t := mv.t
	kind, n := model.Down, delta
	if delta < 0 {
		kind, n = model.Up, -delta
	}
	t.tl.Hold()
	for range n {
		t.tl.Press(model.Key{Kind: kind})
	}
	return t.load.after(t.tl.Release())
}

// BeginBurst and EndBurst bracket the keys of one burst: the model takes
// them all, then asks once for what they need (EndBurst's command).
func (mv Moves) BeginBurst() {
	t := mv.t
	t.tl.Hold()
}

func (mv Moves) EndBurst() tea.Cmd {
	t := mv.t
	return t.load.after(t.tl.Release())
}

// jumpTo moves the cursor to the row holding seq, reading around it when
// it is not held.
func (mv Moves) jumpTo(seq int64) tea.Cmd {
	t := mv.t
	return t.load.press(model.Key{Kind: model.Jump, Seq: seq})
}
