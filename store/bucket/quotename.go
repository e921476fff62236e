package bucket

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MaxQuotedName bounds a name quoted in an error or a report line: a
// conversation, user or document ID, an action or a context name read from
// a file, a store or a command line. Real names are far shorter; a hostile
// or mistaken one of 100 kB must not make a "one-line" error of 100 kB.
const MaxQuotedName = 100

// QuoteName quotes a name for one line of an error or a report: Go-quoted,
// so control characters and escapes show and are never sent, and cut on a
// rune boundary past MaxQuotedName bytes, saying how long it was:
// "aaaa"… (102400 bytes).
func QuoteName(s string) string {
	if len(s) <= MaxQuotedName {
		return strconv.Quote(s)
	}
	i := MaxQuotedName
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:i]), len(s))
}
