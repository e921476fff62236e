// Package projection computes what one user sees of a stored slot and
// renders it for humans. It is pure: no I/O, no terminal, no clock; its only
// input from store is store/bucket.
//
// The stored slot is the same for everyone; what a viewer sees is computed at
// read time, as OpenIM's server does (open-im-server paths below;
// /work/shared/OPENIM.md, "Reading as a given user"). A comment or test that
// says "rule N" means this list:
//
//  1. Read state: the slot's is_read is copied to the message
//     (pkg/common/storage/controller/msg.go handlerDBMsg) and reported only
//     in a single chat, the only kind whose slots it is written in
//     (mgo/msg.go MarkSingleChatMsgsAsRead); msg.is_read is never used.
//  2. Deleted for me: a viewer in the slot's del_list gets content "" and
//     status 4 (pkg/common/storage/database/mgo/msg.go
//     GetMsgBySeqIndexIn1Doc; controller/msg.go handlerDeleteAndRevoked).
//  3. Revoked: a revoke record wins on content: content type 2101 and the
//     revoke detail as content; status stays 4 when rule 2 also applied
//     (same files as rule 2).
//  4. Holes: a missing bucket, a null msg or send_time 0 shows as a hole;
//     OpenIM answers a stand-in {seq, status 4, the previous send time}
//     (controller/msg.go GetMessageBySeqs; mgo/msg.go FindSeqs and
//     findBeforeSendTime).
//  5. Quotes: a quote (content type 114) is rewritten only when the quoted
//     slot is revoked (2101, the revoked slot's projected content) or the
//     quoted seq is 0 or less (2101, "{}"); a quoted hole, missing bucket or
//     message deleted for the viewer is left as stored (controller/msg.go
//     handlerDBMsg and handlerQuote, looking up with mgo/msg.go
//     GetMsgBySeqIndexIn1Doc). store.ScanQuoted and store.QuotedSlots read
//     what it needs.
//  6. Window: a viewer sees seqs from the higher of seq.min_seq and their
//     seq_user.min_seq up to the conversation's max seq, capped by their
//     conversation.max_seq, or by seq_user.max_seq in a notification
//     conversation (controller/msg.go GetMsgBySeqsRange and GetMsgBySeqs,
//     internal/rpc/msg/sync_msg.go PullMessageBySeqs). store computes the
//     bounds into a bucket.Window; Explain names them.
//  7. Unread: the server hands out each conversation's max seq and the
//     viewer's read seq (seq_user.read_seq, or the cache's when higher);
//     the unread count is their difference, never below the window
//     (internal/rpc/msg/as_read.go GetConversationsHasReadAndMaxSeq;
//     bucket.Window.Unread).
package projection
