package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

type conversationsCmd struct {
	As     string `name:"as" required:"" placeholder:"USER" complete:"users" help:"The user whose view is shown."`
	Format string `name:"format" enum:"text,json" default:"text" help:"Output format: text or json."`
	// Notifications lists the n_* conversations instead of the chats.
	Notifications bool   `name:"notifications" help:"List the user's notification conversations (n_*) instead of the chats."`
	At            string `name:"at" placeholder:"TIME" help:"List the conversations the user had at that moment, with max seq, read seq and unread then; what no evidence dates is marked unknown. ${at_forms}."`
	readStats
}

func (conversationsCmd) Help() string {
	return `One line per conversation of the user: pinned mark, ID, kind, unread count, name, max seq and read seq.
In the order the user's app lists them: pinned first, then by the send time of the newest message
in the user's window, newest first; conversations without one last. With --format json, one
object per line (latestMsgSendTime in unix ms, isPinned).

--notifications lists instead the notification conversations OpenIM pulls the user (n_*: revoke,
delete and read notices, group changes), which the app applies to the chats and never lists: those
of the user's conversations and their own n_<user>_<user>, each with the user's window (minSeq to
maxSeq, seq_user.max_seq capping it) and its newest message, newest first. They have no unread
count (OpenIM's get_conversations_has_read_and_max_seq gives none for them, and the app shows
none): the text says "no unread count", and the json's unread is always 0.

Examples:

    chatlens conversations --as alice
    chatlens conversations --as alice --format json
    chatlens conversations --as u3 --notifications
    chatlens conversations --as alice --at 2024-06-15T14:30:00.000+02:00

--at lists the chats the user had at that moment, with max seq, read seq and unread then; a read
seq known only as a bound says so (read ≥ 40) and the row is marked unknown.`
}

func (c *conversationsCmd) Run(ctx context.Context, s *session) error {
	return s.withStore(ctx, readsOrSeeds, func(st *store.Store) error {
		if err := st.CheckIDs(ctx, "", c.As); err != nil {
			return err
		}
		return c.counting(s, st, func() error { return c.list(ctx, s, st) })
	})
}

// list prints the user's conversations, one a line or one object a line.
func (c *conversationsCmd) list(ctx context.Context, s *session, st *store.Store) error {
	if err := s.warnViewer(ctx, c.As, ""); err != nil {
		return err
	}
	if c.At != "" {
		return c.listAt(ctx, s, st)
	}
	read := st.ConversationsOf
	if c.Notifications {
		read = st.NotificationsOf
	}
	list, err := read(ctx, c.As)
	if err != nil {
		return err
	}
	for _, conv := range list {
		s.warnSeqUsers(&conv.Window)
	}
	switch {
	case len(list) == 0 && c.Notifications:
		fmt.Fprintf(s.stderr, "chatlens: OpenIM pulls %s no notification conversation: none of theirs holds a message\n",
			projection.SingleLine(c.As))
	case len(list) == 0:
		// An empty list is an answer too: say whose and why.
		fmt.Fprintf(s.stderr, "chatlens: %s owns no conversation documents: OpenIM pulls them no conversation (the app admin, or a user never added to one)\n",
			projection.SingleLine(c.As))
	}
	if c.Notifications {
		return c.printNotifications(s, list)
	}
	if c.Format == "json" {
		for _, conv := range list {
			if err := printJSON(s.stdout, summaryRow(conv)); err != nil {
				return err
			}
		}
		return nil
	}
	convs := make([]bucket.Conversation, len(list))
	for i, conv := range list {
		convs[i] = conv.Conversation
	}
	names, err := st.ConversationNames(ctx, c.As, convs)
	if err != nil {
		return err
	}
	for _, conv := range list {
		pin := " "
		if conv.IsPinned {
			pin = "*"
		}
		fmt.Fprintf(s.stdout, "%s %s %-6s %6d unread  %s (seq %d, read %d)\n", pin,
			pad(conv.ConversationID, 28), kindName(conv.ConversationType), conv.Unread(),
			pad(names[conv.ConversationID], 24), conv.Window.MaxSeq, conv.Window.ReadSeq)
	}
	return nil
}

// conversationRow is one line of `conversations --format json`: the
// fields of get_conversations_has_read_and_max_seq, then what a variant
// adds (nil: not printed), so every variant's line reads the same.
type conversationRow struct {
	ConversationID   string `json:"conversationID"`
	ConversationType int32  `json:"conversationType"`
	MaxSeq           int64  `json:"maxSeq"`
	HasReadSeq       int64  `json:"hasReadSeq"` // the server's name (get_conversations_has_read_and_max_seq)
	ReadSeq          int64  `json:"readSeq"`    // the same, as chatlens named it first
	// Always 0 for a notification conversation: it has no unread count
	// (store.ConversationSummary.UnreadCounted).
	Unread   int64 `json:"unread"`
	IsPinned bool  `json:"isPinned"`
	// The send time (unix ms) of the newest message in the user's window,
	// 0 for none: what the list is sorted by.
	LatestMsgSendTime int64     `json:"latestMsgSendTime"`
	*windowRow                  // --notifications
	Unknown           *[]string `json:"unknown,omitempty"` // --at: a read seq known only as a bound says so here
}

// windowRow is the window of a notification conversation: the first seq
// pulled, what caps the last (seq_user.max_seq; "" when nothing does),
// and the newest message as dump writes it ("" for none).
type windowRow struct {
	MinSeq   int64  `json:"minSeq"`
	CapField string `json:"capField,omitempty"`
	Newest   string `json:"newest"`
}

// summaryRow is the json line of a conversation as it is now.
func summaryRow(conv store.ConversationSummary) conversationRow {
	return conversationRow{ConversationID: conv.ConversationID, ConversationType: conv.ConversationType,
		MaxSeq: conv.Window.MaxSeq, HasReadSeq: conv.Window.ReadSeq, ReadSeq: conv.Window.ReadSeq,
		Unread: conv.Unread(), IsPinned: conv.IsPinned, LatestMsgSendTime: conv.Window.LatestSendTime()}
}

// pad sanitises s and fits it to width terminal cells (CJK and emoji take two).
func pad(s string, width int) string {
	s = projection.Truncate(projection.SingleLine(s), width)
	return s + strings.Repeat(" ", max(0, width-projection.Width(s)))
}

func kindName(t int32) string {
	return map[int32]string{bucket.SessionSingle: "single", bucket.SessionWriteGroup: "group", bucket.SessionGroup: "group",
		bucket.SessionNotification: "notice"}[t]
}
