package timeline

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
)

// Jumps: to a seq or a date typed at :, and those resolved in the
// background (a date, the next message past holes), of which only the
// newest lands.

type jumpResolvedMsg struct {
	req common.ReqID
	seq int64
	err error
}

// JumpForms are the forms : takes, as a person types them.
const JumpForms = "12345, 2024-06-15 or 2024-06-15 14:30"

// Jump goes to a seq ("123") or to the first message sent at or after a
// date ("2024-05-01", "2024-05-01 14:30", in the display time zone).
func (t *Model) Jump(input string) tea.Cmd {
	input = strings.TrimSpace(input)
	if input == "" {
		return nil
	}
	if t.empty() {
		t.say("nothing to jump to", true)
		return nil
	}
	if seq, err := strconv.ParseInt(input, 10, 64); err == nil {
		if seq < t.minSeq() || seq > t.maxSeq() {
			t.say(t.outside(seq), true)
			return nil
		}
		return t.jumpTo(seq)
	}
	if when, _, ok := store.ParseTypedTime(input, t.e.Loc); ok {
		t.say("looking for "+input+"…", false)
		t.jumpReq = t.e.NewReq()
		return resolveDate(t.e, t.jumpReq, t.cid, t.minSeq(), t.maxSeq(), when.UnixMilli())
	}
	t.say(fmt.Sprintf("%q is neither a seq nor a date (%s)", projection.SingleLine(input), JumpForms), true)
	return nil
}

// outside says seq is not in the viewer's window, and why the window ends
// there in the inspector's words (projection.StartWords, EndWords), so the
// reason comes with the refusal.
func (t *Model) outside(seq int64) string {
	say := fmt.Sprintf("seq %d is outside %d..%d", seq, t.minSeq(), t.maxSeq())
	why := projection.EndWords(t.win)
	if seq < t.minSeq() {
		why = projection.StartWords(t.win)
	}
	if why == "" {
		return say
	}
	return say + ": " + why
}

// jumpResolved moves the cursor where a background jump found, unless a
// newer jump (G, g, another seq or date) came first.
func (t *Model) jumpResolved(msg jumpResolvedMsg) tea.Cmd {
	if msg.req != t.jumpReq {
		return nil
	}
	t.jumpReq = 0
	if msg.err != nil {
		t.say("jump: "+msg.err.Error(), true)
		return nil
	}
	t.say(fmt.Sprintf("jumped to seq %d", msg.seq), false)
	return t.jumpTo(msg.seq)
}

// resolveDate finds the first seq sent at or after target (seqAtOrAfter).
func resolveDate(e *common.Common, req common.ReqID, cid string, minSeq, maxSeq, target int64) tea.Cmd {
	return func() tea.Msg {
		found, err := seqAtOrAfter(e, cid, minSeq, maxSeq, target)
		if err == nil && found == 0 {
			err = errors.New("no message sent at or after that time")
		}
		return jumpResolvedMsg{req: req, seq: found, err: err}
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
