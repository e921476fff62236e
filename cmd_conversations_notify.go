package main

import (
	"fmt"
	"strings"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// printNotifications writes the user's notification conversations
// (--notifications): the chats' columns, the window, and the newest
// message as dump writes its row.
func (c *conversationsCmd) printNotifications(s *session, list []store.ConversationSummary) error {
	for _, conv := range list {
		newest := ""
		if n := conv.Window.Newest; n != nil {
			m := projection.View(*n, bucket.DocIDForSeq(conv.ConversationID, n.Seq), c.As,
				projection.Conv{ID: conv.ConversationID, SessionType: bucket.SessionNotification}, nil)
			newest = strings.TrimSpace(projection.Line(m, s.zone()))
		}
		if c.Format == "json" {
			row := summaryRow(conv)
			row.windowRow = &windowRow{MinSeq: conv.Window.MinSeq, CapField: conv.Window.CapField, Newest: newest}
			if err := printJSON(s.stdout, row); err != nil {
				return err
			}
			continue
		}
		window := fmt.Sprintf("seq %d-%d, read %d", conv.Window.MinSeq, conv.Window.MaxSeq, conv.Window.ReadSeq)
		if conv.Window.CapField != "" {
			window += ", capped by " + conv.Window.CapField
		}
		unread := fmt.Sprintf("%6d unread", conv.Unread())
		if !conv.UnreadCounted() {
			unread = "no unread count" // OpenIM gives none: UnreadCounted
		}
		fmt.Fprintf(s.stdout, "  %s %-6s %s  %s  newest: %s\n", pad(conv.ConversationID, 28),
			kindName(conv.ConversationType), unread, window, newest)
	}
	return nil
}
