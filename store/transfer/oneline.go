package transfer

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxErrorText bounds the text quoted from input or from a server in an
// error, so that one bad line cannot flood the terminal.
const maxErrorText = 300

// oneLine makes text from untrusted input safe for a one-line error on a
// terminal: control characters, escape sequences, bidi overrides and invalid
// UTF-8 are escaped, and long text is cut.
func oneLine(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if b.Len() >= maxErrorText {
			b.WriteString("…")
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i]), 16))
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

// lineError is a one-line, sanitised message that keeps its cause for
// errors.Is (context.Canceled, store.ErrReadOnly, ...).
type lineError struct {
	msg   string
	cause error
}

func (e *lineError) Error() string { return e.msg }
func (e *lineError) Unwrap() error { return e.cause }

func wrap(cause error, format string, args ...any) error {
	return &lineError{msg: fmt.Sprintf(format, args...), cause: cause}
}
