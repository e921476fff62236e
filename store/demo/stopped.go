package demo

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// StoredConv is a conversation a seed began: its messages from seq 1 up to
// Last are stored (the holes the plan leaves aside). Unpulled: its
// membership documents (seq_user, conversation, group and group_member)
// are not, so OpenIM pulls its messages to no one; a seed writes them
// before the messages unless members come and go in the conversation.
type StoredConv struct {
	Cid      string
	Last     int64
	Unpulled bool
}

// String names c's stored seqs for the error.
func (c StoredConv) String() string {
	s := fmt.Sprintf("%s seqs 1-%d", c.Cid, c.Last)
	if c.Unpulled {
		s += " (its member documents are not written: pulled by no one)"
	}
	return s
}

// StoppedError is a seed that did not finish (interrupted, or a write that
// failed): what stands in the store, in counts and seq ranges, and why.
type StoppedError struct {
	Stored, Total int          // messages stored, of those planned
	Convs         []StoredConv // the conversations begun, in order
	Err           error
}

// namedConvs bounds how many conversations the error names.
const namedConvs = 3

// maxCause bounds the cause's text: a write's own error can list seqs.
// Its middle goes: the start says where it stopped, the end why (a wrapped
// error's root, such as "no space left on device").
const maxCause = 240

func (e *StoppedError) Error() string {
	what := "stopped"
	if errors.Is(e.Err, context.Canceled) || errors.Is(e.Err, context.DeadlineExceeded) {
		what = "interrupted"
	}
	cause := e.Err.Error()
	if len(cause) > maxCause {
		cause = strings.ToValidUTF8(cause[:maxCause/2], "") + "…" + strings.ToValidUTF8(cause[len(cause)-maxCause/2:], "")
	}
	if e.Stored == 0 {
		return fmt.Sprintf("%s before any message was stored (of %d planned): %s", what, e.Total, cause)
	}
	// The last conversation begun is where it stopped, maybe part way:
	// it is always named, the ones between counted.
	var where []string
	for i, c := range e.Convs {
		if len(e.Convs) > namedConvs && i == namedConvs-1 {
			last := e.Convs[len(e.Convs)-1]
			where = append(where, fmt.Sprintf("and %d more, then %s where it stopped", len(e.Convs)-namedConvs, last))
			break
		}
		where = append(where, c.String())
	}
	return fmt.Sprintf("%s after storing %d of %d messages (%s); they stay stored, `seed --force` writes the whole demo again: %s",
		what, e.Stored, e.Total, strings.Join(where, ", "), cause)
}

func (e *StoppedError) Unwrap() error { return e.Err }
