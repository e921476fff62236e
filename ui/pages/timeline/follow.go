package timeline

import (
	"github.com/chatlens/chatlens/ui/pages/timeline/model"

	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// followEvery is how often a followed conversation asks where its
// messages end: one small read, so a modest interval costs little.
const followEvery = 2 * time.Second

// follow is follow mode (like less +F): the open conversation polls its
// max seq and, only when it moves, reads the bucket(s) the new messages are
// in; the cursor, when it was on the newest message, moves with them.
type follow struct {
	on   bool
	req  common.ReqID // ticks and polls of an earlier follow are dropped
	from string       // where the max seq was read (MALLOC_SEQ:<cid> or seq.max_seq)
}

type followTickMsg struct {
	req common.ReqID
}

type followPolledMsg struct {
	req  common.ReqID
	seq  int64
	from string
	err  error
}

func pollLatest(e *common.Common, cid string, req common.ReqID) tea.Cmd {
	return func() tea.Msg {
		seq, from, err := e.Store.LatestSeq(e.Ctx, cid)
		return followPolledMsg{req: req, seq: seq, from: from, err: err}
	}
}

// ToggleFollow turns follow mode on or off.
func (t *Model) ToggleFollow() tea.Cmd {
	t.follow.on = !t.follow.on
	t.follow.req = t.e.NewReq()
	if !t.follow.on {
		t.say("stopped following "+t.cid, false)
		return nil
	}
	t.say(fmt.Sprintf("following %s: new messages appear as they arrive (%s to stop)",
		t.cid, t.e.Keys.Follow.Help().Key), false)
	return pollLatest(t.e, t.cid, t.follow.req)
}

// Following reports follow mode on, and where the max seq is read (""
// until the first poll).
func (t *Model) Following() (on bool, from string) { return t.follow.on, t.follow.from }

// followTicked polls, if the tick is of the follow still on.
func (t *Model) followTicked(msg followTickMsg) tea.Cmd {
	if !t.follow.on || t.follow.req != msg.req {
		return nil
	}
	return pollLatest(t.e, t.cid, t.follow.req)
}

// followPolled takes a poll's answer: nothing more is read unless the max
// seq moved; the next tick is set only now, so slow polls never pile up.
func (t *Model) followPolled(msg followPolledMsg) tea.Cmd {
	if !t.follow.on || t.follow.req != msg.req {
		return nil
	}
	req := t.follow.req
	next := t.e.Tick(followEvery, func(time.Time) tea.Msg { return followTickMsg{req: req} })
	if msg.err != nil {
		t.say("follow: "+msg.err.Error(), true)
		return next
	}
	t.follow.from = msg.from
	return tea.Batch(t.grow(msg.seq), next)
}

// grow moves where the conversation ends to seq for every window known,
// and reads the bucket(s) that gained messages: the held newest one again
// and the next one, never the rest of the run.
func (t *Model) grow(seq int64) tea.Cmd {
	old := t.base.EndSeq
	if seq <= old {
		return nil
	}
	tailing := t.cursor == t.maxSeq()
	raise := func(w bucket.Window) bucket.Window {
		w.EndSeq = seq
		if w.CapSeq == 0 {
			w.MaxSeq = seq
		}
		return w
	}
	t.base = raise(t.base)
	t.win = raise(t.win)
	for v, w := range t.wins {
		t.wins[v] = raise(w)
	}
	t.tl.KnowWindow(t.viewer, t.win)
	for v, w := range t.wins {
		t.tl.KnowWindow(v, w)
	}
	if t.empty() {
		return nil
	}
	// The buckets that gained messages are read again as the rows need
	// them; following, the cursor goes on to the newest.
	t.tl.Hold()
	t.tl.Forget(bucket.BucketIndex(old+1), bucket.BucketIndex(t.maxSeq()))
	if tailing {
		t.tl.Press(model.Key{Kind: model.Bottom})
	}
	return t.after(t.tl.Release())
}
