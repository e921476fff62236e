package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/pages/timeline/model"
)

// Whose eyes the timeline uses: the viewer, the compare view's second
// viewer, and their windows.

// viewAs switches whose eyes the timeline uses. The held slots are
// re-projected at the next draw; only the viewer's window (min and read
// seq) may need a read, and the caller makes it in the background (wait:
// loadWindow, or the list's read after a switch, replying under t.winReq).
func (t *timeline) viewAs(v string) (cmd tea.Cmd, wait bool) {
	if v == t.viewer {
		return nil, false
	}
	if v == t.compareAs {
		// Comparing someone with themselves shows nothing: swap the sides.
		t.compareAs, t.lastCompared = t.viewer, t.viewer
	}
	t.viewer = v
	t.winReq = 0
	if w, ok := t.wins[v]; ok {
		return tea.Batch(t.applyWindow(w), t.restartDiffs()), false
	}
	t.diffs = diffScan{}
	t.winOK = false
	t.winReq = t.e.NewReq()
	return nil, true
}

// setCompare turns the compare view on against id. Their window is read in
// the background: seqs outside it are what they cannot see at all.
func (t *timeline) setCompare(id string) tea.Cmd {
	t.compareAs, t.lastCompared = id, id
	t.compareReq = 0
	if _, ok := t.wins[id]; ok || id == "" {
		return t.restartDiffs()
	}
	t.diffs = diffScan{}
	t.compareReq = t.e.NewReq()
	return loadWindow(t.e, t.compareReq, id, t.base)
}

// stopCompare leaves the compare view.
func (t *timeline) stopCompare() {
	t.compareAs, t.diffOnly, t.diffs = "", false, diffScan{}
}

// outsideWindow reports seq beyond the window known for viewer (false
// while it is not known).
func (t *timeline) outsideWindow(viewer string, seq int64) bool {
	w, ok := t.wins[viewer]
	return ok && (w.PulledNothing() || seq < max(1, w.MinSeq) || seq > w.MaxSeq)
}

// windowLoaded applies a viewer's window the timeline waited for.
func (t *timeline) windowLoaded(msg windowLoadedMsg) tea.Cmd {
	t.wins[msg.viewer] = msg.win
	if msg.viewer != t.viewer {
		if msg.viewer == t.compareAs {
			return t.restartDiffs()
		}
		return nil
	}
	return tea.Batch(t.applyWindow(msg.win), t.restartDiffs())
}

func (t *timeline) applyWindow(w bucket.Window) tea.Cmd {
	// The held buckets stay; only the bounds and the read line change. A
	// window that reaches past what is held is filled by prefetch.
	w.Last = nil
	t.win, t.winOK = w, true
	if t.tl.Viewer() == t.viewer {
		return t.after(t.tl.SetWindow(w)) // the bounds or the read line moved
	}
	return t.after(t.tl.Land(model.Landed{Read: model.Read{Kind: model.ReadWindow, Viewer: t.viewer}, Window: w}))
}

// rereadWindow reads viewer's window again whole after a mark read, when a
// read of it was on its way (it may have read before the write); else only
// the read seq is read back (afterMarkRead). A window not shown is dropped.
func (t *timeline) rereadWindow(viewer string) tea.Cmd {
	switch viewer {
	case t.viewer:
		t.winReq = t.e.NewReq()
		return loadWindow(t.e, t.winReq, viewer, t.base)
	case t.compareAs:
		t.compareReq = t.e.NewReq()
		return loadWindow(t.e, t.compareReq, viewer, t.base)
	}
	delete(t.wins, viewer) // read again when next shown
	return nil
}
