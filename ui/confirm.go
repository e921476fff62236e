package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/chatlens/chatlens/projection"
)

// confirmDialog asks before a write; run is the write as a command, nil
// for a refusal (the dialog only explains). It ends with answered set,
// confirmed telling which way.
type confirmDialog struct {
	title string
	lines []string
	run   tea.Cmd
	req   reqID  // the request number run's reply carries
	rule  string // a refusal's rule, for the audit log

	e                   *common
	width               int
	answered, confirmed bool
}

// showConfirm opens d over the panes.
func (m *Model) showConfirm(d confirmDialog) {
	d.e = m.e
	d.SetSize(m.width, m.bodyHeight())
	m.confirm, m.overlay = d, ovConfirm
}

// confirmKey gives the key to the dialog and starts the write it confirms.
func (m *Model) confirmKey(k tea.KeyMsg) tea.Cmd {
	d := &m.confirm
	d.Update(k)
	switch {
	case !d.answered:
		return nil
	case !d.confirmed:
		m.overlay = ovNone
		m.setStatus("cancelled", false)
		return nil
	case d.run == nil: // a refusal: nothing to do
		m.overlay = ovNone
		return nil
	}
	m.overlay = ovNone
	m.setStatus(d.title+" working…", false)
	m.writes[d.req] = true
	return d.run
}

func (d *confirmDialog) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	switch keys := d.e.keys; {
	case key.Matches(k, keys.Confirm):
		d.answered, d.confirmed = true, true
	case key.Matches(k, keys.Cancel):
		d.answered = true
	}
	return nil
}

func (d *confirmDialog) SetSize(width, _ int) { d.width = width }

func (d *confirmDialog) View() string {
	th := d.e.theme
	w := max(20, min(70, d.width-6))
	lines := []string{th.Title.Render(projection.Truncate(d.title, w)), ""}
	for _, l := range d.lines {
		lines = append(lines, wrapWords(textPresentation(projection.SingleLine(l)), w)...)
	}
	// The answers are the key map's, so a keys.json moving them moves
	// them here too.
	var ans []string
	for _, b := range d.ShortHelp() {
		ans = append(ans, b.Help().Key+": "+b.Help().Desc)
	}
	lines = append(lines, "", th.Accent.Render(strings.Join(ans, "   ")))
	return th.Dialog.Width(w + 2).Render(strings.Join(lines, "\n"))
}

func (d *confirmDialog) ShortHelp() []key.Binding {
	keys := d.e.keys
	if d.run == nil { // a refusal: nothing to confirm
		return []key.Binding{as(keys.Cancel, "close")}
	}
	return []key.Binding{keys.Confirm, keys.Cancel}
}

func (d *confirmDialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }
