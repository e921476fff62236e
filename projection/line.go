package projection

import (
	"fmt"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// Line is one readable, sanitised line for a text dump: seq, time (in loc),
// sender and what the viewer sees, with markers for revoked and read messages.
func Line(m Message, loc *time.Location) string {
	if m.Hole {
		return fmt.Sprintf("%7d  %-19s  %s", m.Seq, "", Summary(m))
	}
	sender := m.SenderNickname
	if sender == "" {
		sender = m.SendID
	}
	line := fmt.Sprintf("%7d  %-19s  %s: %s", m.Seq, Timestamp(m.SendTime, loc),
		Truncate(SingleLine(sender), 24), Summary(m))
	var marks []string
	if m.Revoked {
		marks = append(marks, "[revoked]")
	}
	if m.SessionType == bucket.SessionSingle && m.IsRead {
		marks = append(marks, "[read]")
	}
	if len(marks) > 0 {
		line += "  " + strings.Join(marks, " ")
	}
	return line
}
