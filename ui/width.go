package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/projection"
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

// wrapCells wraps a line of plain text to width cells: at spaces where it
// can, inside a word too long for a line (an ID, a URL), never cutting
// anything off. Continuation lines keep the line's indent and two more
// cells, so a wrapped value reads as one.
func wrapCells(line string, width int) []string {
	if width < 8 || projection.Width(line) <= width {
		return []string{projection.Truncate(line, max(1, width))}
	}
	indent := strings.Repeat(" ", len(line)-len(strings.TrimLeft(line, " "))+2)
	if len(indent) > width/2 {
		indent = "  "
	}
	first, rest, _ := strings.Cut(ansi.Wrap(line, width, ""), "\n")
	out := []string{first}
	rest = strings.ReplaceAll(rest, "\n", " ")
	for _, l := range strings.Split(ansi.Wrap(strings.TrimLeft(rest, " "), width-len(indent), ""), "\n") {
		out = append(out, indent+l)
	}
	for i, l := range out {
		out[i] = projection.Truncate(l, width) // a cell the wrap measured otherwise
	}
	return out
}
