package bucket

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// EscapeUntrusted makes text read from a store or an input file safe for one
// line of a terminal: control characters, escape sequences, bidi overrides
// and invalid UTF-8 are written as visible escapes, never sent, and text
// longer than maxBytes is cut on a rune boundary with an ellipsis. store has
// no rendering of its own (that is projection's job), but its reports and
// errors quote documents, which can be hostile.
func EscapeUntrusted(s string, maxBytes int) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if b.Len() >= maxBytes {
			b.WriteString("…")
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == ' ' || strconv.IsPrint(r) && !UnsafeRune(r),
			isJoiner(r) && !StrayJoiner(s[:i], r, s[i+size:]):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRuneToASCII(r) // ASCII: a printable unsafe rune is escaped too
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

const (
	zwnj = 0x200c // zero width non-joiner
	zwj  = 0x200d // zero width joiner
)

func isJoiner(r rune) bool { return r == zwj || r == zwnj }

// StrayJoiner reports r, a zero width joiner or non-joiner between the text
// before and after it, as one that joins nothing: every output writes it
// escaped, as it writes UnsafeRune's list, and keeps the others, which emoji
// sequences and scripts need (👨‍👩‍👧, Persian's "می‌خواهم", Indic
// conjuncts). Both neighbours must be non-ASCII characters every output
// writes as they are (an emoji presentation selector or a skin tone before
// r belongs to the character before them). A joiner must also draw the three
// as one character, which a terminal and the measured width agree on (an
// emoji sequence, a conjunct): elsewhere terminals differ (tmux 3.3a merges
// any non-ASCII character after a joiner into the cell before, and between
// ASCII letters it only hides itself). A non-joiner must stand between
// letters or marks, where it stops two of them joining. Any other rune is
// not a joiner: false.
func StrayJoiner(before string, r rune, after string) bool {
	next, _ := utf8.DecodeRuneInString(after)
	return isJoiner(r) && strayJoiner(baseBefore(before), r, next)
}

// strayJoiner is StrayJoiner of the joiner r between the character prev
// (baseBefore) and next.
func strayJoiner(prev, r, next rune) bool {
	if !writtenAsIs(prev) || !writtenAsIs(next) {
		return true
	}
	if r == zwnj {
		return !letterOrMark(prev) || !letterOrMark(next)
	}
	// The width a terminal UI measures (lipgloss's, by grapheme clusters):
	// no wider than the wider neighbour when the three are one character.
	joined := displaywidth.String(string([]rune{prev, zwj, next}))
	return joined > max(displaywidth.String(string(prev)), displaywidth.String(string(next)))
}

// baseBefore is the last character of s that is not an emoji presentation
// selector or a skin tone modifier; -1 when there is none.
func baseBefore(s string) rune {
	for s != "" {
		r, size := utf8.DecodeLastRuneInString(s)
		if !emojiModifier(r) {
			return r
		}
		s = s[:len(s)-size]
	}
	return -1
}

func emojiModifier(r rune) bool { return r == 0xfe0f || r >= 0x1f3fb && r <= 0x1f3ff }

// writtenAsIs reports r as a non-ASCII character that no output rewrites,
// drops or escapes.
func writtenAsIs(r rune) bool {
	return r >= 0x80 && r != utf8.RuneError && !isJoiner(r) && !emojiModifier(r) && !UnsafeRune(r)
}

func letterOrMark(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }

// UnsafeRune is the one list of characters no human-facing output writes
// raw, whatever the format: text, JSON, reports and errors all write them
// escaped. They are the C1 controls (a UTF-8 terminal may act on U+009B as
// CSI), the bidi controls and marks that reorder or disguise what follows,
// the line and paragraph separators, and the invisible characters that hide
// text inside text (zero width space, word joiner, BOM and the like). The
// zero width joiner and non-joiner are not among them: emoji sequences and
// several scripts need them (StrayJoiner tells the ones that join nothing).
// The tag characters spell hidden text after visible text ("hello" then tags
// spelling IGNORE), and the Hangul fillers, the combining grapheme joiner
// and the Khmer inherent vowels draw as blank (or as nothing) while
// counting as letters.
func UnsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls
		return true
	case r == 0xad, r == 0x61c, r == 0x180e: // soft hyphen, Arabic letter mark, Mongolian vowel separator
		return true
	case r == 0x200b, r == 0x200e, r == 0x200f: // zero width space, LRM, RLM
		return true
	case r >= 0x2028 && r <= 0x202e: // line and paragraph separators, LRE RLE PDF LRO RLO
		return true
	case r >= 0x2060 && r <= 0x206f: // word joiner, invisible operators, LRI RLI FSI PDI, deprecated format
		return true
	case r == 0xfeff, r >= 0xfff9 && r <= 0xfffb: // BOM, interlinear annotation
		return true
	case r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0: // Hangul fillers
		return true
	case r == 0x34f, r == 0x17b4, r == 0x17b5: // combining grapheme joiner, Khmer inherent vowels
		return true
	case r == 0xe0001, r >= 0xe0020 && r <= 0xe007f: // tag characters
		return true
	}
	return false
}

// EscapeJSONLine rewrites, in one line of JSON, DEL, every UnsafeRune and
// every StrayJoiner as a \uXXXX escape: the same text to a JSON reader,
// nothing a terminal acts on or hides. Outside strings JSON is ASCII, so
// every such rune is inside a string (a value or a key), where the escape
// means the same; a joiner next to a quote or an escape joins nothing.
func EscapeJSONLine(line []byte) []byte {
	clean := true
	for _, r := range string(line) {
		if r == 0x7f || UnsafeRune(r) || isJoiner(r) {
			clean = false
			break
		}
	}
	if clean {
		return line
	}
	out := make([]byte, 0, len(line)+16)
	base := rune(-1) // baseBefore(line[:i])
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRune(line[i:])
		next, _ := utf8.DecodeRune(line[i+size:])
		switch {
		case r > 0xffff && UnsafeRune(r): // JSON escapes only 16 bits: a surrogate pair
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		case r == 0x7f || size > 1 && UnsafeRune(r), isJoiner(r) && strayJoiner(base, r, next):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, line[i:i+size]...)
		}
		if !emojiModifier(r) {
			base = r
		}
		i += size
	}
	return out
}
