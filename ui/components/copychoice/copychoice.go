// Package copychoice is what y copies of the row under the cursor: the
// text alone (the first choice, so y y copies it as y once did) or the row
// with seq, time, sender and message IDs, for a ticket; the path of a
// transcript just written (NewPath); and the copy itself, to the clipboard
// through the terminal or tmux.
package copychoice

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"

	"github.com/chatlens/chatlens/ui/common"
)

// Model asks what to copy. Both choices go through Copy, sanitised.
type Model struct {
	e        *common.Common
	seq      int64
	labels   []string
	texts    []string
	cursor   int
	width    int
	answered bool // a choice was made or the dialog dismissed
	chosen   bool
	title    string // "Copy seq N" unless set
	whole    bool   // the texts are shown whole, wrapped (a path), not cut to a line
}

var _ common.Component = (*Model)(nil)

// New offers the copies of msg, sent by sender as its row names them.
func New(e *common.Common, msg projection.Message, sender string) Model {
	return Model{e: e, seq: msg.Seq,
		labels: []string{"text only", "row: seq, time, sender, message IDs and text"},
		texts:  []string{projection.Summary(msg), row(msg, sender, e)}}
}

// NewPath is a file just written: title says what it holds, y copies its
// path, shown whole.
func NewPath(e *common.Common, title, path string) Model {
	return Model{e: e, title: title, whole: true, labels: []string{"path"}, texts: []string{path}}
}

// Answer reports whether the choice was answered, and the text chosen
// (chosen false: dismissed).
func (c *Model) Answer() (answered, chosen bool, text string) {
	return c.answered, c.chosen, c.texts[c.cursor]
}

// row is msg as one line for a ticket.
func row(msg projection.Message, sender string, e *common.Common) string {
	from := sender
	if msg.SendID != "" && msg.SendID != sender {
		from += " (" + msg.SendID + ")"
	}
	return projection.SingleLine(fmt.Sprintf("seq %d · %s · %s · client_msg_id %s · server_msg_id %s: %s",
		msg.Seq, projection.Timestamp(msg.SendTime, e.Loc), from, orDash(msg.ClientMsgID), orDash(msg.ServerMsgID),
		projection.Summary(msg)))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (c *Model) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := c.e.Keys
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

func (c *Model) SetSize(width, _ int) { c.width = width }

func (c *Model) View() string {
	th := c.e.Theme
	w := max(20, min(70, c.width-6))
	title := fmt.Sprintf("Copy seq %d", c.seq)
	if c.title != "" {
		title = c.title
	}
	lines := []string{th.Title.Render(projection.Truncate(title, w)), ""}
	for i, label := range c.labels {
		mark, style := "  ", th.Text
		if i == c.cursor {
			mark, style = "▸ ", th.Selected
		}
		lines = append(lines, style.Render(projection.Truncate(mark+label, w)))
		text := "    " + common.TextPresentation(projection.SingleLine(c.texts[i]))
		if !c.whole {
			lines = append(lines, th.Muted.Render(projection.Truncate(text, w)))
			continue
		}
		for _, l := range common.WrapCells(text, w) {
			lines = append(lines, th.Muted.Render(l))
		}
	}
	var ans []string
	for _, b := range c.ShortHelp() {
		ans = append(ans, b.Help().Key+": "+b.Help().Desc)
	}
	lines = append(lines, "", th.Accent.Render(projection.Truncate(strings.Join(ans, "   "), w)))
	return th.Dialog.Width(w + 2).Render(strings.Join(lines, "\n"))
}

func (c *Model) ShortHelp() []key.Binding {
	keys := c.e.Keys
	if len(c.texts) == 1 {
		return []key.Binding{common.As(keys.Confirm, "copy"), common.As(keys.Cancel, "close")}
	}
	return []key.Binding{common.As(keys.ChoiceDown, "choose"), common.As(keys.Confirm, "copy"), keys.Cancel}
}

func (c *Model) FullHelp() [][]key.Binding { return [][]key.Binding{c.ShortHelp()} }
