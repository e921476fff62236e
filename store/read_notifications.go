package store

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/chatlens/chatlens/store/bucket"
)

// A user's notification conversations (n_*): where the server tells their
// devices of revokes (2101), deletes (2102), read receipts (2200) and group
// changes. The server hands them out beside the chats, never as chats:
// internal/rpc/msg/sync_msg.go GetMaxSeq lists the user's conversation IDs
// (their conversation documents), adds each one's notification conversation
// (pkg/util/conversationutil GetNotificationConversationIDByConversationID)
// and the user's own (GetSelfNotificationConversationID, n_<u>_<u>), and
// drops those whose max seq is 0; PullMessageBySeqs then reads an n_ one in
// a branch of its own (NotificationMsgs, capped by seq_user.max_seq, no
// conversation document needed). openim-sdk-core applies what it pulls
// there to the chats and keeps only the seq (internal/interaction/
// msg_sync.go IsNotification and triggerNotification;
// internal/conversation_msg/notification.go doNotificationManager:
// doRevokeMsg, doDeleteMsgs, doReadDrawing, then SetNotificationSeq), so an
// app never lists them; chatlens lists them apart from the chats.

// NotificationConversationID is the notification conversation OpenIM pairs
// with cid: its prefix before the first "_" replaced by "n" (si_a_b →
// n_a_b, sg_g → n_g); "" when cid has no "_".
func NotificationConversationID(cid string) string {
	_, rest, ok := strings.Cut(cid, "_")
	if !ok {
		return ""
	}
	return "n_" + rest
}

// SelfNotificationID is uid's own notification conversation, where a
// delete for me and a group's mark conversation read are told.
func SelfNotificationID(uid string) string { return "n_" + uid + "_" + uid }

// notificationIDs are the n_ conversations the server may pull uid, from
// the IDs of uid's chats, in a stable order, each once.
func notificationIDs(uid string, chats []string) []string {
	out := []string{SelfNotificationID(uid)}
	for _, cid := range chats {
		if n := NotificationConversationID(cid); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// NotificationsOf lists the notification conversations the server pulls
// uid, each with uid's window (seq.min_seq and seq_user.min_seq, capped by
// seq_user.max_seq) and its newest message, newest first. Cost: the
// conversation documents, the max seqs (cache or seq documents), then
// Windows' round trips for those left. A store without conversation
// documents (a bare msg export) derives them from the conversations the
// list shows uid.
func (s *lookupReads) NotificationsOf(ctx context.Context, uid string) ([]ConversationSummary, error) {
	convs, err := s.backend.Conversations(ctx, uid)
	if err != nil {
		return nil, err
	}
	var chats []string
	for _, c := range convs {
		chats = append(chats, c.ConversationID)
	}
	fromMsgs := false
	if len(convs) == 0 {
		if any, err := s.holdsAny(ctx, bucket.CollConversation); err != nil {
			return nil, err
		} else if !any {
			fromMsgs = true
			if chats, err = s.AllConversationIDs(ctx); err != nil {
				return nil, err
			}
			chats = slices.DeleteFunc(chats, func(cid string) bool {
				return ConversationTypeOf(cid) == bucket.SessionSingle && uid != "" && !pairsName(PairsOf(cid), uid)
			})
		}
	}
	return s.notificationsOf(ctx, uid, chats, convs, fromMsgs)
}

// NotificationsBeside is NotificationsOf for uid's list already read
// (ConversationList's rows): no conversation document is read again, so
// it costs the max seqs' round trip alone when none holds a message.
func (s *lookupReads) NotificationsBeside(ctx context.Context, uid string, list []ConversationSummary) ([]ConversationSummary, error) {
	chats := make([]string, 0, len(list))
	var convs []bucket.Conversation
	fromMsgs := false
	for _, c := range list {
		chats = append(chats, c.ConversationID)
		if fromMsgs = c.FromMessages; !fromMsgs {
			convs = append(convs, c.Conversation)
		}
	}
	return s.notificationsOf(ctx, uid, chats, convs, fromMsgs)
}

// notificationsOf lists those of chats' notification conversations and
// uid's own that hold a message; convs are uid's conversation documents.
func (s *lookupReads) notificationsOf(ctx context.Context, uid string, chats []string, convs []bucket.Conversation, fromMsgs bool) ([]ConversationSummary, error) {
	owned := map[string]bucket.Conversation{}
	for _, c := range convs {
		owned[c.ConversationID] = c
	}
	cids, err := s.withMaxSeq(ctx, notificationIDs(uid, chats))
	if err != nil || len(cids) == 0 {
		return nil, err
	}
	ws, err := s.windows(ctx, uid, cids, owned, nil, true)
	if err != nil {
		return nil, err
	}
	out := make([]ConversationSummary, 0, len(cids))
	for _, cid := range cids {
		c := bucket.Conversation{OwnerUserID: uid, ConversationID: cid, ConversationType: bucket.SessionNotification}
		out = append(out, ConversationSummary{Conversation: c, Window: *ws[cid], FromMessages: fromMsgs})
	}
	sort.SliceStable(out, func(i, j int) bool { return listsBefore(out[i], out[j]) })
	return out, nil
}

// withMaxSeq keeps the cids whose max seq is not 0, as GetMaxSeq keeps
// them: the cache's MALLOC_SEQ when it has the key, else seq.max_seq (a
// conversation without a seq document has none). One round trip each.
func (s *lookupReads) withMaxSeq(ctx context.Context, cids []string) ([]string, error) {
	maxes := map[string]int64{}
	if s.cache != nil {
		cached, err := s.cache.MaxSeqs(ctx, cids)
		s.cacheResult(err)
		if err == nil {
			maxes = cached
		}
	}
	recs, err := s.backend.SeqRecords(ctx, cids)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if _, ok := maxes[r.ConversationID]; !ok {
			maxes[r.ConversationID] = r.MaxSeq
		}
	}
	return slices.DeleteFunc(slices.Clone(cids), func(cid string) bool { return maxes[cid] <= 0 }), nil
}
