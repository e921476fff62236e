package uitest

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// ErrBoom is the failure a test makes reads fail with.
var ErrBoom = errors.New("connection refused")

// KeyMsg is the key message of a key name or of runes.
func KeyMsg(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

var rowRE = regexp.MustCompile(`(\d+) (?:(?:\d{4}-)?\d\d-\d\d \d\d:\d\d| {16}| {11}) `)

// RowOf returns the drawn timeline line of seq, "" when it is not on screen.
func RowOf(view string, seq int64) string {
	for _, line := range strings.Split(view, "\n") {
		if m := rowRE.FindStringSubmatch(line); m != nil && m[1] == strconv.FormatInt(seq, 10) {
			return line
		}
	}
	return ""
}

// SeqsOnScreen lists the seqs of the drawn timeline rows, top to bottom.
func SeqsOnScreen(view string) []int64 {
	var out []int64
	for _, line := range strings.Split(view, "\n") {
		if m := rowRE.FindStringSubmatch(line); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			out = append(out, n)
		}
	}
	return out
}
