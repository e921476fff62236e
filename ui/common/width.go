package common

import (
	"unicode/utf8"

	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/projection"
)

const vs16 = '\uFE0F' // VARIATION SELECTOR-16: "draw the character before as an emoji"

// TextPresentation drops a VS16 that follows a character terminals draw
// one cell wide (❤ ⛰ ☺). Terminals disagree on how wide the pair is: a
// grapheme-aware one draws two cells, tmux and wcwidth-based ones one, so
// a row holding "❤️" ends a cell early in tmux and its border moves. The
// bare character is one cell everywhere, and so the layout holds. A VS16
// after a wide emoji (☕️) changes no width and stays.
func TextPresentation(s string) string {
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

// WrapCells wraps a line of plain text to width cells at spaces, never
// inside a value that fits a line: an ID copied from the screen is whole.
// Continuation lines keep the line's indent and two more cells, so a
// wrapped value reads as one; a value longer than a line gets lines of its
// own from the first cell, cut only where the screen ends. Nothing is cut
// off.
func WrapCells(line string, width int) []string {
	if width < 8 || projection.Width(line) <= width {
		return []string{projection.Truncate(line, max(1, width))}
	}
	lead := len(line) - len(strings.TrimLeft(line, " "))
	indent := strings.Repeat(" ", lead+2)
	if len(indent) > width/2 {
		indent = "  "
	}
	var out []string
	cur, words := line[:lead], false // the line being filled; whether it holds a word yet
	// Split at single spaces: a run of spaces inside a value is kept.
	for _, w := range strings.Split(line[lead:], " ") {
		sep := ""
		if words {
			sep = " "
		}
		if projection.Width(cur)+len(sep)+projection.Width(w) <= width {
			cur, words = cur+sep+w, true
			continue
		}
		if words {
			out = append(out, cur)
		}
		if projection.Width(indent)+projection.Width(w) <= width {
			cur, words = indent+w, true
			continue
		}
		// A word longer than a line, a line at a time; each cut measures a
		// bounded prefix only, so a value of megabytes wraps in linear time.
		for {
			n := min(len(w), width*cellBytes)
			for n < len(w) && !utf8.RuneStart(w[n]) {
				n-- // never cut a rune
			}
			piece := ansi.Truncate(w[:n], width, "")
			if len(piece) == len(w) || piece == "" {
				out = append(out, w)
				break
			}
			out, w = append(out, piece), w[len(piece):]
		}
		cur, words = indent, false
	}
	if words {
		out = append(out, cur)
	}
	for i, l := range out {
		out[i] = projection.Truncate(l, width) // a cell the wrap measured otherwise
	}
	return out
}

// cellBytes bounds the bytes one cell takes in the text wrapped: a rune is
// at most 4, and a cluster's marks and joiners add a few more.
const cellBytes = 32

// PadRight pads s with spaces to width cells.
func PadRight(s string, width int) string {
	if w := projection.Width(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// FitBlock makes s exactly width x height cells: lines cut or padded, rows
// added or dropped. Cheaper than a lipgloss width, which re-wraps every line.
func FitBlock(s string, width, height int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	for i, l := range lines {
		l = TextPresentation(l) // one width in every terminal, tmux included
		lines[i] = l
		w := ansi.StringWidth(l)
		switch {
		case w > width:
			lines[i] = ansi.Truncate(l, width, "")
		case w < width:
			lines[i] = l + strings.Repeat(" ", width-w)
		}
	}
	return strings.Join(lines, "\n")
}

// WrapWords breaks a sanitised line at spaces into lines of at most width
// cells; a word longer than width is cut.
func WrapWords(s string, width int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case projection.Width(line)+1+projection.Width(word) <= width:
			line += " " + word
		default:
			out = append(out, projection.Truncate(line, width))
			line = word
		}
	}
	return append(out, projection.Truncate(line, width))
}
