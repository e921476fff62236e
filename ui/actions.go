package ui

import (
	"errors"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

// The timeline's write keys open the dialog of the write on the row under
// the cursor; the dialog is the store's plan of it (writeflow.go).

// askWrite asks for the write act on the selected message: a mark read
// covers every unread seq up to it, which the store reads as it plans.
func (m *Model) askWrite(act action) tea.Cmd {
	t := m.tl
	seq, viewer := t.Cursor(), t.Viewer()
	msg, ok := t.Message(seq, viewer)
	if !ok {
		return nil
	}
	w := store.WriteRequest{Action: storeAction[act], Cid: t.ID(), By: viewer, Seqs: []int64{seq}, Admin: m.e.Admin}
	if act == actRead {
		w.Seqs, w.UpTo = nil, seq
	}
	d, read := m.wf.ask(m.e, act, w, fmt.Sprintf("seq %d: %s", seq, projection.Summary(msg)))
	m.showConfirm(d)
	return read
}

// planRead draws a plan in its dialog; a plan that could not be read
// closes the dialog and says why.
func (m *Model) planRead(msg planReadMsg) tea.Cmd {
	d, ok, err := m.wf.planned(m.e, msg)
	switch {
	case !ok || m.overlay != ovConfirm:
		m.wf.close()
		return nil
	case err != nil:
		m.overlay = ovNone
		m.setStatus("cannot plan the write: "+err.Error(), true)
		return nil
	case errors.Is(m.wf.refusal(), store.ErrReadOnly):
		// The keys are off: the status bar says so, with no dialog.
		m.overlay = ovNone
		m.setStatus(m.wf.refusal().Error(), true)
		m.wf.close()
		return nil
	}
	m.showConfirm(d)
	return nil
}
