package list

import (
	"fmt"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"

	"github.com/chatlens/chatlens/ui/common"
)

// rowLook is how a row of the list is drawn: two lines, the name with its
// kind and unread count, then the newest message as owner sees it.
type rowLook struct {
	e       *common.Common
	width   int
	owner   string
	counted bool // the rows' counts are owner's (not the last owner's, still shown)
	focused bool // the keys come to the list: its cursor is ▸, not ▹
}

// typeMarker tells the kind of a conversation at a glance, one cell: `!`
// is the timeline's mark of a slot that breaks the contract, so a
// notification conversation has `~`.
func typeMarker(cid string) string {
	switch store.ConversationTypeOf(cid) {
	case bucket.SessionSingle:
		return "@"
	case bucket.SessionGroup, bucket.SessionWriteGroup:
		return "#"
	case bucket.SessionNotification:
		return "~"
	}
	return "?"
}

// draw is the two lines of it.
func (r rowLook) draw(it *Item, selected bool) []string {
	t, width := r.e.Theme, r.width
	unread := ""
	// (A notification conversation has none: store's UnreadCounted.)
	if n := it.Sum.Unread(); n > 0 && r.counted {
		unread = fmt.Sprintf(" (%d)", n)
	}
	marker := "  "
	switch {
	case selected && r.focused:
		marker = "▸ "
	case selected:
		marker = "▹ " // the keys go to the other pane
	}
	head := marker + typeMarker(it.Sum.ConversationID) + " " + projection.SingleLine(it.Name)
	head = projection.Truncate(head, width-projection.Width(unread)) + unread
	preview := "    "
	if it.pending && it.Preview == nil {
		preview += "…"
	}
	if it.Preview != nil {
		// A quote of anything but PreviewQuoted stays unresolved: the
		// preview shows it by seq, never its stored text (see projection.View).
		quoted := func(seq int64) (bucket.StoredSlot, bool) {
			if it.PreviewQuoted != nil && it.PreviewQuoted.Seq == seq {
				return *it.PreviewQuoted, true
			}
			return bucket.StoredSlot{}, false
		}
		m := projection.View(*it.Preview, it.PreviewDoc, r.owner,
			projection.Conv{ID: it.Sum.ConversationID, SessionType: store.ConversationTypeOf(it.Sum.ConversationID)}, quoted)
		preview += projection.Summary(m)
	}
	preview = projection.Truncate(preview, width)
	style := t.Text
	if selected && r.focused {
		style = t.Selected
	}
	return []string{style.Render(common.PadRight(head, width)), t.Muted.Render(preview)}
}
