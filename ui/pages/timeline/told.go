package timeline

import (
	"slices"

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
	viewers []string // the viewer, and the compare view's second one
	loading bool
	found   map[string][]store.Told // by viewer
	err     error
}

type toldLoadedMsg struct {
	req   common.ReqID
	found map[string][]store.Told
	err   error
}

// loadTold starts looking for the notifications of slot s as each of
// viewers pulls them (in the compare view, both); nil when it shows no
// revoke, delete or read mark.
func (in Inspector) loadTold(s bucket.StoredSlot, viewers ...string) tea.Cmd {
	t := in.t
	if s.Slot == nil || s.Slot.Revoke == nil && len(s.Slot.DelList) == 0 && !s.Slot.IsRead {
		t.told = told{}
		return nil
	}
	t.told = told{req: t.e.NewReq(), cid: t.cid, seq: s.Seq, viewers: viewers, loading: true}
	e, req, cid := t.e, t.told.req, t.cid
	return func() tea.Msg {
		found := make(map[string][]store.Told, len(viewers))
		for _, v := range viewers { // the store keeps what it read: the second costs little
			f, err := e.Store.Told(e.Ctx, v, cid, s)
			if err != nil {
				return toldLoadedMsg{req: req, err: err}
			}
			found[v] = f
		}
		return toldLoadedMsg{req: req, found: found}
	}
}

func (in Inspector) toldLoaded(msg toldLoadedMsg) {
	t := in.t
	if msg.req != t.told.req {
		return // an older opening's
	}
	t.told.loading, t.told.found, t.told.err = false, msg.found, msg.err
}

// toldLines are the inspector's lines on the notifications of the slot at
// the cursor as viewer pulls them: "revoke: told by n_g1 seq 28, pulled by
// u3: yes".
func (in Inspector) toldLines(viewer string) []string {
	t := in.t
	r := t.told
	if r.req == 0 || r.cid != t.cid || r.seq != t.tl.Cursor() || !slices.Contains(r.viewers, viewer) {
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
	for i, f := range r.found[viewer] {
		out = append(out, map[bool]string{true: "told        ", false: "            "}[i == 0]+f.Words(viewer))
		none = none || f.Seq == 0
	}
	if none {
		out = append(out, "            ("+store.ToldNoneWhy+")")
	}
	return out
}
