package ui

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

// followTick waits, then asks for a poll; tests replace it to drive polls
// by hand.
var followTick = func(req common.ReqID) tea.Cmd {
	return tea.Tick(followEvery, func(time.Time) tea.Msg { return followTickMsg{req: req} })
}

func pollLatest(e *common.Common, cid string, req common.ReqID) tea.Cmd {
	return func() tea.Msg {
		seq, from, err := e.Store.LatestSeq(e.Ctx, cid)
		return followPolledMsg{req: req, seq: seq, from: from, err: err}
	}
}

// toggleFollow turns follow mode on or off for the open conversation.
func (m *Model) toggleFollow() tea.Cmd {
	t := m.tl
	t.follow.on = !t.follow.on
	t.follow.req = m.e.NewReq()
	if !t.follow.on {
		m.setStatus("stopped following "+t.cid, false)
		return nil
	}
	m.setStatus(fmt.Sprintf("following %s: new messages appear as they arrive (%s to stop)",
		t.cid, m.e.Keys.Follow.Help().Key), false)
	return pollLatest(m.e, t.cid, t.follow.req)
}

// followTicked polls, if the tick is of the follow still on.
func (m *Model) followTicked(msg followTickMsg) tea.Cmd {
	t := m.tl
	if t == nil || !t.follow.on || t.follow.req != msg.req {
		return nil
	}
	return pollLatest(m.e, t.cid, t.follow.req)
}

// followPolled takes a poll's answer: nothing more is read unless the max
// seq moved; the next tick is set only now, so slow polls never pile up.
func (m *Model) followPolled(msg followPolledMsg) tea.Cmd {
	t := m.tl
	if t == nil || !t.follow.on || t.follow.req != msg.req {
		return nil
	}
	next := followTick(t.follow.req)
	if msg.err != nil {
		m.setStatus("follow: "+msg.err.Error(), true)
		return next
	}
	t.follow.from = msg.from
	grow := t.grow(msg.seq)
	m.followList()
	return tea.Batch(grow, next)
}

// grow moves where the conversation ends to seq for every window known,
// and reads the bucket(s) that gained messages: the held newest one again
// and the next one, never the rest of the run.
func (t *timeline) grow(seq int64) tea.Cmd {
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

// followList keeps the list's row of the open conversation as live as the
// timeline, from what the timeline holds (no round trip).
func (m *Model) followList() {
	t := m.tl
	if t == nil {
		return
	}
	m.list.Follow(t.cid, t.base.EndSeq, func(seq int64) (bucket.StoredSlot, string, bool) {
		s, b, ok := t.slot(seq)
		if !ok {
			return bucket.StoredSlot{}, "", false
		}
		return s, b.DocID, true
	})
}
