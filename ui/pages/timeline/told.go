package timeline

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// Which notification told devices of the revoke, deletes and read mark of
// the slot under the cursor (store.Told): read when the inspector opens,
// in the background; the store keeps what it read of each notification
// conversation, so a second opening reads only what arrived since.

type told struct {
	req     common.ReqID
	cid     string
	seq     int64
	viewer  string
	loading bool
	found   []store.Told
	err     error
}

type toldLoadedMsg struct {
	req   common.ReqID
	found []store.Told
	err   error
}

// loadTold starts looking for the notifications of slot s; nil when it
// shows no revoke, delete or read mark.
func (t *Model) loadTold(s bucket.StoredSlot) tea.Cmd {
	if s.Slot == nil || s.Slot.Revoke == nil && len(s.Slot.DelList) == 0 && !s.Slot.IsRead {
		t.told = told{}
		return nil
	}
	t.told = told{req: t.e.NewReq(), cid: t.cid, seq: s.Seq, viewer: t.viewer, loading: true}
	e, req, cid, viewer := t.e, t.told.req, t.cid, t.viewer
	return func() tea.Msg {
		found, err := e.Store.Told(e.Ctx, viewer, cid, s)
		return toldLoadedMsg{req: req, found: found, err: err}
	}
}

func (t *Model) toldLoaded(msg toldLoadedMsg) {
	if msg.req != t.told.req {
		return // an older opening's
	}
	t.told.loading, t.told.found, t.told.err = false, msg.found, msg.err
}

// toldLines are the inspector's lines on the notifications of the slot at
// the cursor: "revoke: told by n_g1 seq 28, pulled by u3: yes".
func (t *Model) toldLines() []string {
	r := t.told
	if r.req == 0 || r.cid != t.cid || r.seq != t.cursor || r.viewer != t.viewer {
		return nil
	}
	switch {
	case r.loading:
		return []string{"told        (reading the notification conversations…)"}
	case r.err != nil:
		return []string{"told        unknown: " + projection.SingleLine(r.err.Error())}
	}
	var out []string
	none := false
	for i, f := range r.found {
		out = append(out, map[bool]string{true: "told        ", false: "            "}[i == 0]+f.Words(t.viewer))
		none = none || f.Seq == 0
	}
	if none {
		out = append(out, "            ("+store.ToldNoneWhy+")")
	}
	return out
}
