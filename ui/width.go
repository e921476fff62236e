package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

const vs16 = '\uFE0F' // VARIATION SELECTOR-16: "draw the character before as an emoji"

// textPresentation drops a VS16 that follows a character terminals draw
// one cell wide (❤ ⛰ ☺). Terminals disagree on how wide the pair is: a
// grapheme-aware one draws two cells, tmux and wcwidth-based ones one, so
// a row holding "❤️" ends a cell early in tmux and its border moves. The
// bare character is one cell everywhere, and so the layout holds. A VS16
// after a wide emoji (☕️) changes no width and stays.
func textPresentation(s string) string {
	if !strings.ContainsRune(s, vs16) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var prev rune
	for _, r := range s {
		if r == vs16 && prev != 0 && ansi.StringWidthWc(string(prev)) == 1 {
			continue
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}
