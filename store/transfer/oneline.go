package transfer

import (
	"fmt"

	"github.com/chatlens/chatlens/store/bucket"
)

// maxErrorText bounds the text quoted from input or from a server in an
// error, so that one bad line cannot flood the terminal.
const maxErrorText = 300

// oneLine makes text from untrusted input safe for a one-line error.
func oneLine(s string) string { return bucket.EscapeUntrusted(s, maxErrorText) }

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
