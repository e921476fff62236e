package projection

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/chatlens/chatlens/store/bucket"
)

// Message text is untrusted: whatever it holds, what reaches the terminal
// must not move the cursor, set the title, write the clipboard or reorder
// the line. Sanitize does not try to parse escape sequences (a parser can be
// out-argued by a hostile one); it makes every control character visible,
// so ESC is gone and what followed it is plain text: "\x1b]52;c;..." shows
// as "^[]52;c;...".

// Sanitize returns s with every C0 control except \n and \t shown in caret
// notation (ESC as "^["), DEL as "^?", the characters bucket.UnsafeRune
// lists (C1 controls, bidi controls and marks, line separators, invisible
// characters) as "<U+XXXX>", so does a zero width joiner or non-joiner
// that joins nothing (bucket.StrayJoiner), and invalid UTF-8 as U+FFFD. A "\r\n" line
// end becomes "\n". An emoji presentation selector after a character that
// is narrow as text, and a skin tone modifier after another character, are
// left out: terminals disagree on their width (tmux 3.3 draws ❤️ in one
// cell and 👍🏽 in four, lipgloss measures two for each), and a width
// measured wrong shifts the layout and leaves stale cells behind.
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		prev := rune(-1) // the rune written last: what a second pass would see
		if b.Len() > 0 {
			prev, _ = utf8.DecodeLastRuneInString(b.String())
		}
		if disputedWidth(prev, r) {
			i += size
			continue
		}
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
		case unsafeRune(r), bucket.StrayJoiner(b.String(), r, s[i+size:]):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// disputedWidth reports r, following prev, as a character terminals draw
// at different widths: U+FE0F (emoji presentation) after a character one
// cell wide as text, or a skin tone modifier after another character.
func disputedWidth(prev, r rune) bool {
	switch {
	case prev < 0 || prev == '\n' || prev == ' ' || prev == '\t':
		return false
	case r == 0xfe0f:
		return ansi.StringWidthWc(string(prev)) == 1
	case r >= 0x1f3fb && r <= 0x1f3ff:
		return true
	}
	return false
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

// unsafeRune is the policy every output shares (bucket.UnsafeRune).
func unsafeRune(r rune) bool { return bucket.UnsafeRune(r) }

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
