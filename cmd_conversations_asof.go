package main

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// `conversations --at`: the chats the user had at a moment (their
// conversation documents created by then), each with what
// get_conversations_has_read_and_max_seq gave then, read back from every
// message's send time and the dated read marks (projection.ListTally).

// Validate refuses --at with --notifications: the moment's list is of
// the chats, as the server's has-read answer is.
func (c *conversationsCmd) Validate() error {
	if c.At == "" {
		return nil
	}
	if c.Notifications {
		return fmt.Errorf("--at lists the chats as they were; it does not take --notifications")
	}
	_, err := parseAt(c.At, time.UTC) // the form only: the zone is the session's
	return err
}

// listedAt is one conversation of the list at the moment.
type listedAt struct {
	store.ConversationSummary
	projection.ListedAt
}

func (c *conversationsCmd) listAt(ctx context.Context, s *session, st *store.Store) error {
	at, err := parseAt(c.At, s.zone())
	if err != nil {
		return err
	}
	list, err := st.ConversationsOf(ctx, c.As)
	if err != nil {
		return err
	}
	var rows []listedAt
	for _, conv := range list {
		s.warnSeqUsers(&conv.Window)
		h, err := st.History(ctx, c.As, conv.ConversationID, s.auditPath())
		if err != nil {
			return err
		}
		w := conv.Window
		kind := projection.Conv{ID: conv.ConversationID, SessionType: store.ConversationTypeOf(conv.ConversationID)}
		tally := &projection.ListTally{AsOf: projection.AsOf{At: at.UnixMilli(), Viewer: c.As, Conv: kind, H: h}, Before: w.MinSeq - 1}
		if had, _ := tally.Had(); !had {
			continue
		}
		err = st.Scan(ctx, &w, 1, w.MaxSeq, func(batch []*bucket.Bucket) error {
			for _, b := range batch {
				for _, slot := range b.Slots {
					if slot.Seq <= w.MaxSeq {
						tally.Add(slot)
					}
				}
			}
			return nil
		}, nil)
		if err != nil {
			return err
		}
		row := listedAt{conv, tally.Listed(w)}
		if conv.IsPinned {
			row.Unknown = append(row.Unknown, "pinned now; when is not stored")
		}
		rows = append(rows, row)
	}
	// The app's order then: pinned first, then the newest message first.
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].IsPinned != rows[j].IsPinned {
			return rows[i].IsPinned
		}
		return rows[i].Latest > rows[j].Latest
	})
	if len(rows) == 0 {
		fmt.Fprintf(s.stderr, "chatlens: %s had no conversation at %s\n", projection.SingleLine(c.As), at.In(s.zone()).Format(time.RFC3339Nano))
	}
	if c.Format == "json" {
		return c.printAtJSON(s, rows)
	}
	return c.printAtText(ctx, s, st, at, rows)
}

func (c *conversationsCmd) printAtJSON(s *session, rows []listedAt) error {
	for _, r := range rows {
		unknown := r.Unknown
		if unknown == nil {
			unknown = []string{}
		}
		row := summaryRow(r.ConversationSummary)
		row.MaxSeq, row.HasReadSeq, row.ReadSeq, row.Unread = r.ListedAt.MaxSeq, r.ListedAt.ReadSeq, r.ListedAt.ReadSeq, r.ListedAt.Unread()
		row.LatestMsgSendTime, row.Unknown = r.Latest, &unknown
		if err := printJSON(s.stdout, row); err != nil {
			return err
		}
	}
	return nil
}

func (c *conversationsCmd) printAtText(ctx context.Context, s *session, st *store.Store, at time.Time, rows []listedAt) error {
	convs := make([]bucket.Conversation, len(rows))
	for i, r := range rows {
		convs[i] = r.Conversation
	}
	names, err := st.ConversationNames(ctx, c.As, convs)
	if err != nil {
		return err
	}
	marked := 0
	for _, r := range rows {
		pin := " "
		if r.IsPinned {
			pin = "*"
		}
		line := fmt.Sprintf("%s %s %-6s %6d unread  %s (seq %d, read %s)", pin,
			pad(r.ConversationID, 28), kindName(r.ConversationType), r.ListedAt.Unread(),
			pad(names[r.ConversationID], 24), r.ListedAt.MaxSeq, r.ReadWords())
		if len(r.Unknown) > 0 {
			marked++
			line += "  ← " + projection.SingleLine(unknownWords(r.Unknown))
		}
		fmt.Fprintln(s.stdout, line)
	}
	_, err = fmt.Fprintf(s.stdout, "as of %s: %d %s marked unknown\n", at.In(s.zone()).Format(time.RFC3339Nano),
		marked, map[bool]string{true: "conversation", false: "conversations"}[marked == 1])
	return err
}
