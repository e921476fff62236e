package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/components/confirm"
	"github.com/chatlens/chatlens/ui/components/copychoice"

	"github.com/chatlens/chatlens/ui/pages/timeline"

	"fmt"
	"strings"
)

// The dialogs over the timeline: opening them on the row under the cursor,
// and what their answers start.

// showConfirm opens d over the panes.
func (m *Model) showConfirm(d confirm.Dialog) {
	m.confirm = confirm.New(m.e, d)
	m.confirm.SetSize(m.width, m.bodyHeight())
	m.overlay = ovConfirm
}

// confirmKey gives the key to the dialog and starts the write it confirms.
// Until its plan is drawn the dialog only closes: no key confirms a write
// not yet shown.
func (m *Model) confirmKey(k tea.KeyMsg) tea.Cmd {
	d := &m.confirm
	if m.wf.planning() {
		if key.Matches(k, m.e.Keys.Cancel) {
			m.wf.close()
			m.overlay = ovNone
			m.setStatus("cancelled", false)
		}
		return nil
	}
	d.Update(k)
	answered, confirmed := d.Answer()
	refusal := m.wf.refusal()
	if answered {
		m.wf.close()
	}
	switch {
	case !answered:
		return nil
	case !confirmed:
		m.overlay = ovNone
		m.setStatus("cancelled", false)
		return nil
	case d.Run == nil: // a refusal: nothing to do; the status keeps why
		m.overlay = ovNone
		if refusal != nil {
			m.setStatus(refusal.Error(), true)
		}
		return nil
	case m.switching != nil:
		// The store it would go to is about to be left.
		m.overlay = ovNone
		m.setStatus("switching to context "+m.switching.name+"…: nothing written; ask again once it is done", true)
		return nil
	}
	m.overlay = ovNone
	status := d.Title + " working…"
	if wait := m.e.Store.APIWaiting(); wait != "" {
		status = d.Title + " " + wait
	}
	m.setStatus(status, false)
	m.writes[d.Req] = true
	return d.Run
}

// askCopy opens the choice for the message under the cursor.
func (m *Model) askCopy() {
	t := m.tl
	msg, ok := t.Message(t.Cursor(), t.Viewer())
	if !ok || msg.Hole {
		m.setStatus("nothing to copy at this seq", true)
		return
	}
	m.copyChoice = copychoice.New(m.e, msg, t.SenderName(msg))
	m.overlay = ovCopyChoice
}

// copyChoiceKey gives the key to the dialog and copies what was chosen.
func (m *Model) copyChoiceKey(k tea.KeyMsg) tea.Cmd {
	c := &m.copyChoice
	c.Update(k)
	answered, chosen, text := c.Answer()
	if !answered {
		return nil
	}
	m.overlay = ovNone
	if !chosen {
		m.setStatus("nothing copied", false)
		return nil
	}
	return copychoice.Copy(m.e, text)
}

// followTranscript shows the path of a transcript the timeline wrote in a
// dialog where y copies it; the status line names it too, so another
// dialog open meanwhile is left as it is.
func (m *Model) followTranscript() {
	if m.tl == nil {
		return
	}
	if w, ok := m.tl.TranscriptWritten(); ok && m.overlay == ovNone {
		m.copyChoice = copychoice.NewPath(m.e, strings.ToUpper(w.What[:1])+w.What[1:]+" written", w.Path)
		m.overlay = ovCopyChoice
	}
}

// askTranscript opens the input with the rows on screen offered.
func (m *Model) askTranscript() {
	from, to := m.tl.ScreenRange()
	m.input.Start(inTranscript, timeline.TranscriptPrompt, fmt.Sprintf("%d-%d", from, to), true)
}
