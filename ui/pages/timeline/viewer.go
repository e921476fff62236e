package timeline

import (
	"github.com/chatlens/chatlens/ui/pages/timeline/model"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// Whose eyes the timeline uses: the viewer, the compare view's second
// viewer, and their windows.

// ViewAs switches whose eyes the timeline uses. The held slots are
// re-projected at the next draw; only the viewer's window (min and read
// seq) may need a read, made in the background: when listReads, the list's
// read of the new owner brings it (replying under winReq, read at at);
// else cmd reads it.
func (t *Model) ViewAs(v string, listReads bool) (cmd tea.Cmd, winReq common.ReqID, at *bucket.Window) {
	if v == t.viewer {
		return nil, 0, nil
	}
	t.viewer = v
	t.winReq = 0
	if w, ok := t.wins[v]; ok {
		return t.applyWindow(w), 0, nil
	}
	t.winOK = false
	t.winReq = t.e.NewReq()
	if listReads {
		base := t.base
		return nil, t.winReq, &base
	}
	return loadWindow(t.e, t.winReq, v, t.base), 0, nil
}

// ToggleCompare turns the compare view off, or on: in a single chat
// against its other user; else pick says the root is to ask whom (the
// picker, SetCompare), cmd reading the members meanwhile.
func (t *Model) ToggleCompare() (cmd tea.Cmd, pick bool) {
	if peer := t.peerOf(t.viewer); peer != "" {
		// A single chat has one other member: no choice to make; the
		// model turns it on or off once the keys before it are applied.
		t.lastCompared = peer
		return t.press(model.Key{Kind: model.ToggleCompare, View: model.View{Viewer: peer}}), false
	}
	if t.Comparing() != "" {
		return t.StopCompare(), false
	}
	return t.NeedMembers(), true
}

// SetCompare turns the compare view on against id, once the keys before
// are applied and their window is read: seqs outside it are what they
// cannot see at all.
func (t *Model) SetCompare(id string) tea.Cmd {
	t.lastCompared = id
	return t.press(model.Key{Kind: model.CompareOn, View: model.View{Viewer: id}})
}

// StopCompare leaves the compare view, once the keys before are applied.
func (t *Model) StopCompare() tea.Cmd { return t.press(model.Key{Kind: model.CompareOff}) }

// outsideWindow reports seq beyond the window known for viewer (false
// while it is not known).
func (t *Model) outsideWindow(viewer string, seq int64) bool {
	w, ok := t.wins[viewer]
	return model.Outside(w, ok, seq)
}

// TakeWindow applies a viewer's window the timeline waits for: its
// viewer's after a switch, or the compare view's; any other is of a viewer
// left. A list read after a switch brings the viewer's (list.Landed).
func (t *Model) TakeWindow(req common.ReqID, viewer string, win bucket.Window, err error) tea.Cmd {
	switch req {
	case t.winReq:
		t.winReq = 0
	case t.compareReq:
		t.compareReq = 0
		if err == nil {
			t.wins[viewer] = win
		}
		// The model waits for it (the compare view's second side), or
		// looks for the differences again (after a mark read).
		return t.after(t.tl.Land(model.Landed{Read: model.Read{Kind: model.ReadWindow, Viewer: viewer, Second: true}, Window: win, Err: err}))
	default:
		return nil
	}
	if err != nil {
		t.say("window of "+viewer+": "+err.Error(), true)
		return nil
	}
	t.wins[viewer] = win
	if viewer != t.viewer {
		return nil
	}
	return t.applyWindow(win)
}

func (t *Model) applyWindow(w bucket.Window) tea.Cmd {
	// The held buckets stay; only the bounds and the read line change, in
	// the model too: it reads what the new window needs.
	w.Last = nil
	t.win, t.winOK = w, true
	if t.tl.Viewer() == t.viewer {
		return t.after(t.tl.SetWindow(w)) // the bounds or the read line moved
	}
	return t.after(t.tl.Land(model.Landed{Read: model.Read{Kind: model.ReadWindow, Viewer: t.viewer}, Window: w}))
}

// AfterMarkRead reads viewer's window again whole after a mark read when a
// read of it was on its way (it may have read before the write; a window
// not shown is dropped); else patch says only the read seq is to be read
// back (SetReadSeq).
func (t *Model) AfterMarkRead(viewer string) (patch bool, cmd tea.Cmd) {
	if viewer == t.viewer && t.winReq == 0 || viewer == t.Comparing() && t.compareReq == 0 {
		return true, nil
	}
	return false, t.rereadWindow(viewer)
}

// rereadWindow reads viewer's window again whole (AfterMarkRead).
func (t *Model) rereadWindow(viewer string) tea.Cmd {
	switch viewer {
	case t.viewer:
		t.winReq = t.e.NewReq()
		return loadWindow(t.e, t.winReq, viewer, t.base)
	case t.Comparing():
		t.compareReq = t.e.NewReq()
		return loadWindow(t.e, t.compareReq, viewer, t.base)
	}
	delete(t.wins, viewer) // read again when next shown
	return nil
}

// SetReadSeq puts viewer's read seq where the timeline shows it (the read
// line) and in the windows compared.
func (t *Model) SetReadSeq(viewer string, readSeq int64) tea.Cmd {
	w, known := t.wins[viewer]
	if !known {
		return nil
	}
	w.ReadSeq = readSeq
	t.wins[viewer] = w
	t.tl.KnowWindow(viewer, w)
	if viewer == t.viewer {
		t.win.ReadSeq = readSeq
		return t.after(t.tl.SetWindow(t.win)) // the read line moved: the model looks for differences again
	}
	return t.after(t.tl.Rescan())
}
