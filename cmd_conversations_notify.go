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
			if err := printJSON(s.stdout, struct {
				ConversationID   string `json:"conversationID"`
				ConversationType int32  `json:"conversationType"`
				MaxSeq           int64  `json:"maxSeq"`
				HasReadSeq       int64  `json:"hasReadSeq"`
				ReadSeq          int64  `json:"readSeq"`
				// Always 0: a notification conversation has no unread
				// count (store.ConversationSummary.UnreadCounted); kept so
				// every line of conversations has the same fields.
				Unread            int64 `json:"unread"`
				IsPinned          bool  `json:"isPinned"`
				LatestMsgSendTime int64 `json:"latestMsgSendTime"`
				// The window: the first seq pulled, and what caps the last
				// (seq_user.max_seq), "" when nothing does.
				MinSeq   int64  `json:"minSeq"`
				CapField string `json:"capField,omitempty"`
				Newest   string `json:"newest"` // the newest message as dump writes it, "" for none
			}{conv.ConversationID, conv.ConversationType, conv.Window.MaxSeq, conv.Window.ReadSeq, conv.Window.ReadSeq, conv.Unread(),
				conv.IsPinned, conv.Window.LatestSendTime(), conv.Window.MinSeq, conv.Window.CapField, newest}); err != nil {
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
