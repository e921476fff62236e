package store

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// Who is pulled a notification: a notification conversation (n_*) has no
// readers (the server keeps no read seq of it: get_conversations_has_read_
// and_max_seq gives none, and no client marks a notification read), so the
// inspector of a notification says which members' pulls hold it, by the
// rule of Told's "pulled by u3: yes".

// NoticePull is a member's hold on a notification conversation.
type NoticePull struct {
	Member
	// Theirs: the conversation is one of the member's notification
	// conversations (that of one of their conversations, or their own
	// n_<user>_<user>: sync_msg.go GetMaxSeq).
	Theirs bool
	// MinSeq and MaxSeq are the member's window of it (seq_user.max_seq
	// capping it).
	MinSeq, MaxSeq int64
}

// Pulled says the member's pull holds seq: the conversation is theirs and
// seq inside their window of it.
func (p NoticePull) Pulled(seq int64) bool {
	return p.Theirs && seq >= p.MinSeq && seq <= p.MaxSeq
}

// NoticePulls is, for each of members in their order, their hold on the
// notification conversation of base (a window of it, whose end holds for
// everyone): two round trips a member (their conversation documents and
// seq_user).
func (s *lookupReads) NoticePulls(ctx context.Context, base bucket.Window, members []Member) ([]NoticePull, error) {
	out := make([]NoticePull, 0, len(members))
	for _, m := range members {
		su, err := s.seqUsersOf(ctx, m.UserID, []string{base.Cid})
		if err != nil {
			return nil, err
		}
		convs, err := s.backend.Conversations(ctx, m.UserID)
		if err != nil {
			return nil, err
		}
		w, err := s.windowAtFrom(ctx, m.UserID, base, convs, su)
		if err != nil {
			return nil, err
		}
		chats := make([]string, len(convs))
		for i, c := range convs {
			chats[i] = c.ConversationID
		}
		out = append(out, NoticePull{Member: m, Theirs: slices.Contains(notificationIDs(m.UserID, chats), base.Cid),
			MinSeq: w.MinSeq, MaxSeq: w.MaxSeq})
	}
	return out, nil
}

// maxPulledNames is how many names a pulled-by line lists.
const maxPulledNames = 20

// PulledWords say whose pulls hold seq: "pulled by 4 of 5: a, b, c, d",
// then "not pulled by 1 of 5: e" when some are not. Names as stored: the
// caller sanitises them, as Told.Words'.
func PulledWords(seq int64, pulls []NoticePull) []string {
	if len(pulls) == 0 {
		return nil
	}
	var yes, no []string
	for _, p := range pulls {
		name := p.UserID
		if p.Nickname != "" && p.Nickname != p.UserID {
			name = p.Nickname + " (" + name + ")"
		}
		if p.Pulled(seq) {
			yes = append(yes, name)
		} else {
			no = append(no, name)
		}
	}
	list := func(names []string) string {
		if len(names) == 0 {
			return ""
		}
		if len(names) > maxPulledNames { // a large group's line ends "and N more"
			return ": " + strings.Join(names[:maxPulledNames], ", ") + fmt.Sprintf(" and %d more", len(names)-maxPulledNames)
		}
		return ": " + strings.Join(names, ", ")
	}
	out := []string{fmt.Sprintf("pulled by %d of %d%s", len(yes), len(pulls), list(yes))}
	if len(no) > 0 {
		out = append(out, fmt.Sprintf("not pulled by %d of %d%s", len(no), len(pulls), list(no)))
	}
	return out
}
