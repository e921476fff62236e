package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
)

// y on a row asks what to copy: the text alone (the first choice, so y y
// copies it as y once did) or the row with seq, time, sender and message
// IDs, for a ticket. Both go through copyText, sanitised.

type copyChoice struct {
	e        *common
	seq      int64
	labels   []string
	texts    []string
	cursor   int
	width    int
	answered bool // a choice was made or the dialog dismissed
	chosen   bool
}

// askCopy opens the choice for the message under the cursor.
func (m *Model) askCopy() {
	t := m.tl
	msg, ok := t.message(t.cursor, t.viewer)
	if !ok || msg.Hole {
		m.setStatus("nothing to copy at this seq", true)
		return
	}
	text := projection.Summary(msg)
	m.copyChoice = copyChoice{e: m.e, seq: msg.Seq,
		labels: []string{"text only", "row: seq, time, sender, message IDs and text"},
		texts:  []string{text, copyRow(msg, t.senderName(msg), m.e)}}
	m.overlay = ovCopyChoice
}

// copyRow is msg as one line for a ticket.
func copyRow(msg projection.Message, sender string, e *common) string {
	from := sender
	if msg.SendID != "" && msg.SendID != sender {
		from += " (" + msg.SendID + ")"
	}
	return projection.SingleLine(fmt.Sprintf("seq %d · %s · %s · client_msg_id %s · server_msg_id %s: %s",
		msg.Seq, projection.Timestamp(msg.SendTime, e.loc), from, orDash(msg.ClientMsgID), orDash(msg.ServerMsgID),
		projection.Summary(msg)))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// copyChoiceKey gives the key to the dialog and copies what was chosen.
func (m *Model) copyChoiceKey(k tea.KeyMsg) tea.Cmd {
	c := &m.copyChoice
	c.Update(k)
	if !c.answered {
		return nil
	}
	m.overlay = ovNone
	if !c.chosen {
		m.setStatus("nothing copied", false)
		return nil
	}
	return copyText(m.e, c.texts[c.cursor])
}

func (c *copyChoice) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := c.e.keys
	switch {
	case key.Matches(k, keys.ChoiceUp, keys.Up):
		c.cursor = max(0, c.cursor-1)
	case key.Matches(k, keys.ChoiceDown, keys.Down):
		c.cursor = min(len(c.texts)-1, c.cursor+1)
	case key.Matches(k, keys.Confirm):
		c.answered, c.chosen = true, true
	case key.Matches(k, keys.Cancel):
		c.answered = true
	}
	return nil
}

func (c *copyChoice) SetSize(width, _ int) { c.width = width }

func (c *copyChoice) View() string {
	th := c.e.theme
	w := max(20, min(70, c.width-6))
	lines := []string{th.Title.Render(projection.Truncate(fmt.Sprintf("Copy seq %d", c.seq), w)), ""}
	for i, label := range c.labels {
		mark, style := "  ", th.Text
		if i == c.cursor {
			mark, style = "▸ ", th.Selected
		}
		lines = append(lines, style.Render(projection.Truncate(mark+label, w)),
			th.Muted.Render(projection.Truncate("    "+textPresentation(c.texts[i]), w)))
	}
	var ans []string
	for _, b := range c.ShortHelp() {
		ans = append(ans, b.Help().Key+": "+b.Help().Desc)
	}
	lines = append(lines, "", th.Accent.Render(projection.Truncate(strings.Join(ans, "   "), w)))
	return th.Dialog.Width(w + 2).Render(strings.Join(lines, "\n"))
}

func (c *copyChoice) ShortHelp() []key.Binding {
	keys := c.e.keys
	return []key.Binding{as(keys.ChoiceDown, "choose"), as(keys.Confirm, "copy"), keys.Cancel}
}

func (c *copyChoice) FullHelp() [][]key.Binding { return [][]key.Binding{c.ShortHelp()} }
