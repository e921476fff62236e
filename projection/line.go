package projection

import (
	"fmt"
	"strings"
	"time"

	"github.com/chatlens/chatlens/store/bucket"
)

// Line is one readable, sanitised line for a text dump: seq, time, sender
// and what the viewer sees, with markers for revoked and read messages.
func Line(m Message) string { return LineIn(m, time.UTC) }

// LineIn is Line with the time in loc.
func LineIn(m Message, loc *time.Location) string {
	if m.Hole {
		return fmt.Sprintf("%7d  %-19s  %s", m.Seq, "", Summary(m))
	}
	sender := m.SenderNickname
	if sender == "" {
		sender = m.SendID
	}
	line := fmt.Sprintf("%7d  %-19s  %s: %s", m.Seq, TimestampIn(m.SendTime, loc),
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

// BucketLookup finds quoted seqs among buckets already read, for View.
func BucketLookup(buckets ...*bucket.Bucket) Lookup {
	byIndex := make(map[int64]*bucket.Bucket, len(buckets))
	for _, b := range buckets {
		byIndex[b.Index] = b
	}
	return func(seq int64) (bucket.StoredSlot, bool) {
		if b := byIndex[bucket.BucketIndex(seq)]; b != nil {
			return b.Slots[bucket.SlotIndex(seq)], true
		}
		return bucket.StoredSlot{}, false
	}
}
