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
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	case "ctrl+d":
		return tea.KeyMsg{Type: tea.KeyCtrlD}
	case "ctrl+u":
		return tea.KeyMsg{Type: tea.KeyCtrlU}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

var rowRE = regexp.MustCompile(`(\d+) (?:(?:\d{4}-)?\d\d-\d\d \d\d:\d\d| {16}| {11}) `)

// RowOf returns the drawn timeline line of seq, "" when it is not on screen.
func RowOf(view string, seq int64) string {
	for _, line := range strings.Split(view, "\n") {
		for _, m := range rowRE.FindAllStringSubmatchIndex(line, -1) {
			if line[m[2]:m[3]] == strconv.FormatInt(seq, 10) && startsRow(line[:m[0]]) {
				return line
			}
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

// startsRow reports a match of rowRE at the start of a timeline row: only
// the pane's border, the cursor's marker and padding before it (not a list
// preview that happens to hold a number).
func startsRow(before string) bool {
	if i := strings.LastIndex(before, "│"); i >= 0 {
		before = before[i+len("│"):] // the timeline's pane, beside the list
	}
	return strings.Trim(before, " ▸▹") == ""
}
