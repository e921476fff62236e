package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/ui/components/copychoice"
	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// The dialogs over the timeline besides a write's (writeflow.go): opening
// them on the row under the cursor, and what their answers start.

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

// showWritten shows the path of a transcript the timeline wrote in a
// dialog where y copies it; the status line names it too, so another
// dialog open meanwhile is left as it is.
func (m *Model) showWritten(w timeline.TranscriptWrittenMsg) {
	if m.overlay == ovNone {
		m.copyChoice = copychoice.NewPath(m.e, strings.ToUpper(w.What[:1])+w.What[1:]+" written", w.Path)
		m.overlay = ovCopyChoice
	}
}

// askTranscript opens the input with the rows on screen offered.
func (m *Model) askTranscript() {
	from, to := m.tl.ScreenRange()
	m.input.Start(inTranscript, timeline.TranscriptPrompt, fmt.Sprintf("%d-%d", from, to), true)
}
