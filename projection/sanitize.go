package projection

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Message text is untrusted: whatever it holds, what reaches the terminal
// must not move the cursor, set the title, write the clipboard or reorder
// the line. Sanitize does not try to parse escape sequences (a parser can be
// out-argued by a hostile one); it makes every control character visible,
// so ESC is gone and what followed it is plain text: "\x1b]52;c;..." shows
// as "^[]52;c;...".

// Sanitize returns s with every C0 control except \n and \t shown in caret
// notation (ESC as "^["), DEL as "^?", C1 controls and bidi embeddings,
// overrides and isolates as "<U+XXXX>", and invalid UTF-8 as U+FFFD.
// A "\r\n" line end becomes "\n".
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// a Windows line end: the \n that follows stands for both
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + '@')
		case r == 0x7f:
			b.WriteString("^?")
		case unsafeRune(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain reports s made only of printable ASCII, \n and \t: the common
// case, returned as is without allocating.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// unsafeRune reports C1 controls (a UTF-8 terminal may act on U+009B as
// CSI) and the bidi controls that reorder text after them.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e: // LRE RLE PDF LRO RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI RLI FSI PDI
		return true
	}
	return false
}

// SingleLine sanitises s and turns each run of whitespace that holds a
// newline or tab into one space (dropped at either end), for one-line
// contexts. Runs of plain spaces are kept as typed.
func SingleLine(s string) string {
	s = Sanitize(s)
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	runStart, breaks := -1, false // the pending whitespace run
	for i, r := range s {
		if r == ' ' || r == '\n' || r == '\t' {
			if runStart < 0 {
				runStart = i
			}
			breaks = breaks || r != ' '
			continue
		}
		if runStart >= 0 {
			switch {
			case !breaks:
				b.WriteString(s[runStart:i])
			case b.Len() > 0:
				b.WriteByte(' ')
			}
		}
		runStart, breaks = -1, false
		b.WriteRune(r)
	}
	if runStart >= 0 && !breaks {
		b.WriteString(s[runStart:])
	}
	return b.String()
}

// Width is the number of terminal cells s takes (CJK and emoji take two),
// measured the way lipgloss measures. s should be sanitised.
func Width(s string) int { return ansi.StringWidth(s) }

// Truncate cuts s to at most width cells, ending with "…" when it had to
// cut. It never splits a grapheme (an emoji with modifiers, a CJK
// character). s should be sanitised.
func Truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}
