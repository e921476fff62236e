package timeline

import (
	"fmt"
	"maps"
	"slices"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/common"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// Whose eyes the timeline uses: the viewer, the compare view's second
// viewer, and their windows.

// ViewAs switches whose eyes the timeline uses. The held slots are
// re-projected at the next draw; only the viewer's window (min and read
// seq) may need a read, made in the background: when listReads, the list's
// read of the new owner brings it (replying under winReq, read at at);
// else cmd reads it.
func (vs Viewers) ViewAs(v string, listReads bool) (cmd tea.Cmd, winReq common.ReqID, at *bucket.Window) {
	t := vs.t
	if v == t.viewer {
		return nil, 0, nil
	}
	t.viewer = v
	t.winReq = 0
	if w, ok := t.tl.WindowOf(v); ok {
		return t.Viewers().applyWindow(w), 0, nil
	}
	t.winOK = false
	t.winReq = t.e.NewReq()
	if listReads {
		base := t.base
		return nil, t.winReq, &base
	}
	return loadWindow(t.e, t.winReq, v, t.base), 0, nil
}

// TakeWindow applies a viewer's window the timeline waits for: its
// viewer's after a switch, or the compare view's; any other is of a viewer
// left. A list read after a switch brings the viewer's (list.Landed).
func (vs Viewers) TakeWindow(req common.ReqID, viewer string, win bucket.Window, err error) tea.Cmd {
	t := vs.t
	switch req {
	case t.winReq:
		t.winReq = 0
	case t.compareReq:
		t.compareReq = 0
		// The model waits for it (the compare view's second side), or
		// looks for the differences again (after a mark read).
		return t.load.after(t.tl.Land(model.Landed{Read: model.Read{Kind: model.ReadWindow, Viewer: viewer, Second: true}, Window: win, Err: err}))
	default:
		return nil
	}
	if err != nil {
		return say(t, "window of "+viewer+": "+err.Error(), true)
	}
	t.tl.Know().Window(viewer, win)
	if viewer != t.viewer {
		return nil
	}
	return t.Viewers().applyWindow(win)
}

func (vs Viewers) applyWindow(w bucket.Window) tea.Cmd {
	t := vs.t
	// The held buckets stay; only the bounds and the read line change, in
	// the model too: it reads what the new window needs.
	w.Last = nil
	t.win, t.winOK = w, true
	if t.tl.Viewer() == t.viewer {
		return t.load.after(t.tl.SetWindow(w)) // the bounds or the read line moved
	}
	return t.load.after(t.tl.Land(model.Landed{Read: model.Read{Kind: model.ReadWindow, Viewer: t.viewer}, Window: w}))
}

// AfterMarkRead reads viewer's window again whole after a mark read when a
// read of it was on its way (it may have read before the write; a window
// not shown is dropped); else patch says only the read seq is to be read
// back (SetReadSeq).
func (t *Model) AfterMarkRead(viewer string) (patch bool, cmd tea.Cmd) {
	if viewer == t.viewer && t.winReq == 0 || viewer == t.Compare().With() && t.compareReq == 0 {
		return true, nil
	}
	return false, t.Viewers().rereadWindow(viewer)
}

// rereadWindow reads viewer's window again whole (AfterMarkRead).
func (vs Viewers) rereadWindow(viewer string) tea.Cmd {
	t := vs.t
	switch viewer {
	case t.viewer:
		t.winReq = t.e.NewReq()
		return loadWindow(t.e, t.winReq, viewer, t.base)
	case t.Compare().With():
		t.compareReq = t.e.NewReq()
		return loadWindow(t.e, t.compareReq, viewer, t.base)
	}
	t.tl.Know().Forget(viewer) // read again when next shown
	return nil
}

// SetReadSeq puts viewer's read seq where the timeline shows it (the read
// line) and in the windows compared.
func (t *Model) SetReadSeq(viewer string, readSeq int64) tea.Cmd {
	w, known := t.tl.WindowOf(viewer)
	if !known {
		return nil
	}
	w.ReadSeq = readSeq
	t.tl.Know().Window(viewer, w)
	if viewer == t.viewer {
		t.win.ReadSeq = readSeq
		return t.load.after(t.tl.SetWindow(t.win)) // the read line moved: the model looks for differences again
	}
	return t.load.after(t.tl.Rescan())
}

// Viewers is whose eyes the page uses: the viewer, their window, the
// names known, and the switches the model makes.
type Viewers struct{ t *Model }

// Viewers is the page's viewers.
func (t *Model) Viewers() Viewers { return Viewers{t} }

// Names are the nicknames known, by user ID; AddNames adds more.
func (vs Viewers) Names() map[string]string {
	t := vs.t
	return t.names
}

func (vs Viewers) AddNames(names map[string]string) {
	t := vs.t
	maps.Copy(t.names, names)
}

// Empty reports the viewer shown nothing.
func (vs Viewers) Empty() bool {
	t := vs.t
	return t.Viewers().empty()
}

// minSeq and MaxSeq are the ends of the window the rows are of (at the
// moment shown).
func (vs Viewers) minSeq() int64 {
	return max(1, vs.t.Moment().shown().MinSeq)
}

func (vs Viewers) MaxSeq() int64 {
	return vs.t.Moment().shown().MaxSeq
}

// empty: the viewer sees nothing, as OpenIM's pull gives them nothing when
// they own no conversation document for it (as dump shows them).
func (vs Viewers) empty() bool {
	t := vs.t
	return t.win.PulledNothing() || t.Viewers().MaxSeq() < t.Viewers().minSeq()
}

// memberName is the nickname of a member when known, else the ID.
func (vs Viewers) memberName(id string) string {
	t := vs.t
	return memberName(t.members, t.names, id)
}

// nameSnapshot is memberName over copies of what it reads, for a command
// that runs while the update loop adds names.
func (vs Viewers) nameSnapshot() func(id string) string {
	t := vs.t
	members, names := slices.Clone(t.members), maps.Clone(t.names)
	return func(id string) string { return memberName(members, names, id) }
}

// outside says seq is not in the viewer's window, and why the window ends
// there in the inspector's words (projection.StartWords, EndWords), so the
// reason comes with the refusal.
func (vs Viewers) outside(seq int64) string {
	w := vs.t.tl.Window() // the model's viewer's: the keys before the jump left it
	lo := max(1, w.MinSeq)
	say := fmt.Sprintf("seq %d is outside %d..%d", seq, lo, w.MaxSeq)
	why := projection.EndWords(w)
	if seq < lo {
		why = projection.StartWords(w)
	}
	if why == "" {
		return say
	}
	return say + ": " + why
}
