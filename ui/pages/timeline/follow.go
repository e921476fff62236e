package timeline

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
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

// Toggle turns follow mode on or off.
func (fv Follow) Toggle() tea.Cmd {
	t := fv.t
	t.follow.on = !t.follow.on
	t.follow.req = t.e.NewReq()
	if !t.follow.on {
		return say(t, "stopped following "+t.cid, false)
	}
	return tea.Batch(say(t, fmt.Sprintf("following %s: new messages appear as they arrive (%s to stop)",
		t.cid, t.e.Keys.Follow.Help().Key), false), pollLatest(t.e, t.cid, t.follow.req))
}

// On reports follow mode on, and where the max seq is read (""
// until the first poll): what the status bar draws.
func (fv Follow) On() (on bool, from string) {
	t := fv.t
	return t.follow.on, t.follow.from
}

// followTicked polls, if the tick is of the follow still on.
func (fv Follow) followTicked(msg followTickMsg) tea.Cmd {
	t := fv.t
	if !t.follow.on || t.follow.req != msg.req {
		return nil
	}
	return pollLatest(t.e, t.cid, t.follow.req)
}

// followPolled takes a poll's answer: nothing more is read unless the max
// seq moved; the next tick is set only now, so slow polls never pile up.
func (fv Follow) followPolled(msg followPolledMsg) tea.Cmd {
	t := fv.t
	if !t.follow.on || t.follow.req != msg.req {
		return nil
	}
	req := t.follow.req
	next := t.e.Tick(followEvery, func(time.Time) tea.Msg { return followTickMsg{req: req} })
	if msg.err != nil {
		return tea.Batch(say(t, "follow: "+msg.err.Error(), true), next)
	}
	t.follow.from = msg.from
	return tea.Batch(t.Follow().grow(msg.seq), next)
}

// grow moves where the conversation ends to seq for every window known,
// and reads the bucket(s) that gained messages: the held newest one again
// and the next one, never the rest of the run.
func (fv Follow) grow(seq int64) tea.Cmd {
	t := fv.t
	old := t.base.EndSeq
	if seq <= old {
		return nil
	}
	t.base = model.Grown(t.base, seq)
	t.win = model.Grown(t.win, seq)
	// The model grows its windows once the keys before are applied.
	return tea.Batch(fv.followed(), t.load.press(model.Key{Kind: model.Grow, Seq: seq}))
}

// followed tells the root the conversation followed grew or brought its
// newest buckets, so the list's row follows it (nil when not following).
func (fv Follow) followed() tea.Cmd {
	if !fv.t.follow.on {
		return nil
	}
	msg := FollowedMsg{from{fv.t}}
	return func() tea.Msg { return msg }
}

// Follow is follow mode's feature of the page.
type Follow struct{ t *Model }

// Follow is the page's follow mode.
func (t *Model) Follow() Follow { return Follow{t} }

// End is where the conversation ends for everyone (the seq document).
func (fv Follow) End() int64 {
	t := fv.t
	return t.base.EndSeq
}
