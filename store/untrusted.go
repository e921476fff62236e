package store

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
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
		case r == ' ' || strconv.IsPrint(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}
