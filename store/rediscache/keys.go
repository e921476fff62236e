package rediscache

import "strconv"

// Key formats and hash fields of an OpenIM Server's Redis (OPENIM.md, Redis
// section). Keys carry no prefix: chatlens must hit the very keys the server
// reads, or what it shows and what users get would differ.
const (
	msgCachePrefix = "MSG_CACHE:"
	mallocSeqKey   = "MALLOC_SEQ:"
	seqUserRead    = "SEQ_USER_READ:"
	seqUserMin     = "SEQ_USER_MIN:"
	seqUserMax     = "SEQ_USER_MAX:"

	// rockscache hash fields: value is the payload; a lockUntil field means
	// the key is being rebuilt or was tagged as deleted, so value is stale.
	fieldValue     = "value"
	fieldLockUntil = "lockUntil"
	fieldLockOwner = "lockOwner"
	// fieldCurr of MALLOC_SEQ holds the conversation's current max seq.
	fieldCurr = "CURR"

	// deletedTTL is how long a tagged-as-deleted key lives, in seconds: the
	// server's rockscache Delay.
	deletedTTL = 10
	// readSeqTTL is how long a raised SEQ_USER_READ key lives, in seconds:
	// 30 days, the server's readExpireTime (cache/redis/seq_user.go).
	readSeqTTL = 30 * 24 * 60 * 60
)

// MsgCacheKey is the key of one message slot: MSG_CACHE:<cid>:<seq>.
func MsgCacheKey(cid string, seq int64) string {
	return msgCachePrefix + cid + ":" + strconv.FormatInt(seq, 10)
}

// MallocSeqKey is the key of a conversation's seq allocator: MALLOC_SEQ:<cid>.
func MallocSeqKey(cid string) string { return mallocSeqKey + cid }

// SeqUserReadKey is the key of uid's read seq in cid: SEQ_USER_READ:<cid>:<uid>.
func SeqUserReadKey(cid, uid string) string { return seqUserRead + cid + ":" + uid }

// SeqUserMinKey is the key of uid's cached seq_user.min_seq in cid:
// SEQ_USER_MIN:<cid>:<uid> (pkg/common/storage/cache/cachekey/seq.go).
func SeqUserMinKey(cid, uid string) string { return seqUserMin + cid + ":" + uid }

// SeqUserMaxKey is the key of uid's cached seq_user.max_seq in cid:
// SEQ_USER_MAX:<cid>:<uid>.
func SeqUserMaxKey(cid, uid string) string { return seqUserMax + cid + ":" + uid }
