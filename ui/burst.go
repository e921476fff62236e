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
	if m.conn.waiting && !keyWhileConnecting(k, m.e.Keys, m.overlay != ovNone) {
		return nil // nothing to act on before the store answers
	}
	if k.Type != tea.KeyRunes || len(k.Runes) < 2 || (k.Paste && m.input.Open()) {
		return m.routeKey(k)
	}
	// The timeline reads ahead once the burst is handled, when it knows how
	// far the keys go past what is held: the buckets between in one find.
	tl := m.tl
	if tl != nil {
		tl.Moves().BeginBurst()
	}
	var cmds []tea.Cmd
	for _, r := range k.Runes {
		one := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt, Paste: k.Paste}
		// Each key speaks over the one before, as when pressed alone: a
		// note the key before said is older than this key's status.
		m.now = m.e.NewReq()
		cmds = append(cmds, m.routeKey(one))
	}
	if tl != nil {
		if read := tl.Moves().EndBurst(); m.tl == tl {
			cmds = append(cmds, read)
		}
	}
	return tea.Batch(cmds...)
}
