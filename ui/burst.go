package ui

import (
	tea "github.com/charmbracelet/bubbletea"
)

// handleKeys handles one KeyMsg, which in Bubble Tea v1 may hold a whole
// burst: runes read from the terminal in one go (fast typing, a paste
// without bracketed paste, keys over ssh) arrive as a single KeyMsg whose
// String() is "jj" or ":151", which matches no binding. Each rune is
// handled as its own key, in order, so the first can open an input that the
// rest are typed into. A bracketed paste into an input stays whole.
func (m *Model) handleKeys(k tea.KeyMsg) tea.Cmd {
	if m.conn.waiting && !m.keyWhileConnecting(k) {
		return nil // nothing to act on before the store answers
	}
	if k.Type != tea.KeyRunes || len(k.Runes) < 2 || (k.Paste && m.input.Open()) {
		return m.handleKey(k)
	}
	// The timeline's model queues whatever key waits on a read, so each
	// rune means what it would pressed alone; it asks for its reads once
	// the burst is taken, knowing how far the keys go: the buckets between
	// in one find.
	tl := m.tl
	if tl != nil {
		tl.tl.Hold()
	}
	var cmds []tea.Cmd
	for _, r := range k.Runes {
		one := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt, Paste: k.Paste}
		cmds = append(cmds, m.handleKey(one))
	}
	if tl != nil {
		reads := tl.tl.Release()
		if m.tl == tl {
			cmds = append(cmds, tl.after(reads))
		}
	}
	return tea.Batch(cmds...)
}
