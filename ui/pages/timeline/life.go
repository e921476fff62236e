package timeline

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// The life of the message under the cursor (projection.Life): its
// viewer's dated evidence (store.HistoryLogged) is read when the
// inspector opens, in the background, never as the cursor moves; the
// inspector says "reading its life…" until it lands.

type life struct {
	req     common.ReqID
	cid     string
	viewer  string
	loading bool
	h       bucket.History
	err     error
}

type lifeLoadedMsg struct {
	req common.ReqID
	h   bucket.History
	err error
}

// loadLife starts reading the viewer's history of the conversation.
func (in Inspector) loadLife() tea.Cmd {
	t := in.t
	t.life = life{req: t.e.NewReq(), cid: t.cid, viewer: t.viewer, loading: true}
	e, req, cid, viewer := t.e, t.life.req, t.cid, t.viewer
	return func() tea.Msg {
		h, err := e.Store.HistoryLogged(e.Ctx, viewer, cid)
		return lifeLoadedMsg{req: req, h: h, err: err}
	}
}

func (in Inspector) lifeLoaded(msg lifeLoadedMsg) {
	t := in.t
	if msg.req != t.life.req {
		return // an older opening's
	}
	t.life.loading, t.life.h, t.life.err = false, msg.h, msg.err
}

// lifeLines are the inspector's lines on the life of slot s: one change a
// line, in time order, with the record that dates it.
func (in Inspector) lifeLines(s bucket.StoredSlot) []string {
	t := in.t
	r := t.life
	if r.req == 0 || r.cid != t.cid || r.viewer != t.viewer {
		return nil
	}
	switch {
	case r.loading:
		return []string{"life        (reading its life…)"}
	case r.err != nil:
		return []string{"life        unknown: " + projection.SingleLine(r.err.Error())}
	}
	var out []string
	for i, e := range projection.Life(s, r.h) {
		out = append(out, map[bool]string{true: "life        ", false: "            "}[i == 0]+e.Words(t.e.Loc))
	}
	return out
}
