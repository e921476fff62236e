package ui

import (
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/ui/pages/list"
	"github.com/chatlens/chatlens/ui/pages/timeline"
)

// followList keeps the list's row of the followed conversation as live as
// the timeline, from what the timeline holds (no round trip), when it
// tells it grew (timeline.FollowedMsg).
func followList(l *list.Model, t *timeline.Model) {
	l.Follow(t.ID(), t.Follow().End(), func(seq int64) (bucket.StoredSlot, string, bool) {
		s, b, ok := t.Slot(seq)
		if !ok {
			return bucket.StoredSlot{}, "", false
		}
		return s, b.DocID, true
	})
}
