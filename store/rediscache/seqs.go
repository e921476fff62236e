package rediscache

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/chatlens/chatlens/store"
)

// MaxSeqs reads MALLOC_SEQ:<cid> field CURR of every cid in one pipeline.
// A cid without the key (or with a CURR that is not a number) is left out,
// and the caller falls back to MongoDB.
func (c *Cache) MaxSeqs(ctx context.Context, cids []string) (map[string]int64, error) {
	keys := make([]string, len(cids))
	for i, cid := range cids {
		keys[i] = MallocSeqKey(cid)
	}
	vals, err := c.hgetAll(ctx, "read "+mallocSeqKey, keys, fieldCurr)
	if err != nil {
		return nil, err
	}
	return byCid(cids, vals), nil
}

// ReadSeqs reads SEQ_USER_READ:<cid>:<uid> field value of every cid in one
// pipeline. The key is a rockscache hash: one carrying lockUntil is a miss.
func (c *Cache) ReadSeqs(ctx context.Context, uid string, cids []string) (map[string]int64, error) {
	keys := make([]string, len(cids))
	for i, cid := range cids {
		keys[i] = SeqUserReadKey(cid, uid)
	}
	vals, err := c.hgetAll(ctx, "read "+seqUserRead, keys, fieldValue, fieldLockUntil)
	if err != nil {
		return nil, err
	}
	return byCid(cids, vals), nil
}

// UserSeqs reads SEQ_USER_MIN, SEQ_USER_MAX and SEQ_USER_READ of uid in
// every cid in one pipeline (rockscache hashes: one carrying lockUntil is
// a miss). The server reads these before the seq_user document
// (cache/redis/seq_user.go GetUserMinSeq, GetUserMaxSeq, GetUserReadSeq).
func (c *Cache) UserSeqs(ctx context.Context, uid string, cids []string) (store.CachedUserSeqs, error) {
	keys := make([]string, 0, 3*len(cids))
	for _, key := range []func(cid, uid string) string{SeqUserMinKey, SeqUserMaxKey, SeqUserReadKey} {
		for _, cid := range cids {
			keys = append(keys, key(cid, uid))
		}
	}
	vals, replyErrs, err := c.hmgetEach(ctx, "read SEQ_USER_*", keys, fieldValue, fieldLockUntil)
	if err != nil {
		return store.CachedUserSeqs{}, err
	}
	n := len(cids)
	got := store.CachedUserSeqs{Min: byCid(cids, vals[:n]), Max: byCid(cids, vals[n:2*n]), Read: byCid(cids, vals[2*n:])}
	// The server's GetUserMinSeq fails on such a key (a rockscache HGET
	// answering WRONGTYPE) and its pull skips the conversation.
	for i, cid := range cids {
		if e := replyErrs[i]; e != "" {
			if got.UnreadableMin == nil {
				got.UnreadableMin = map[string]store.KeyError{}
			}
			got.UnreadableMin[cid] = store.KeyError{Key: keys[i], Err: e}
		}
	}
	return got, nil
}

// ReadSeqsOf reads SEQ_USER_READ:<cid>:<uid> of every uid in one pipeline,
// keyed by uid; a miss or a locked key is left out, as in ReadSeqs.
func (c *Cache) ReadSeqsOf(ctx context.Context, cid string, uids []string) (map[string]int64, error) {
	keys := make([]string, len(uids))
	for i, uid := range uids {
		keys[i] = SeqUserReadKey(cid, uid)
	}
	vals, err := c.hgetAll(ctx, "read "+seqUserRead, keys, fieldValue, fieldLockUntil)
	if err != nil {
		return nil, err
	}
	return byCid(uids, vals), nil
}

// hgetAll runs HMGET key fields... for every key in one pipeline and returns,
// per key, the first field as a number, or -1 when it is absent, not a
// number, a later field (lockUntil) is present, or Redis answered the key
// with an error (WRONGTYPE).
func (c *Cache) hgetAll(ctx context.Context, op string, keys []string, fields ...string) ([]int64, error) {
	out, _, err := c.hmgetEach(ctx, op, keys, fields...)
	return out, err
}

// hmgetEach is hgetAll that also returns, per key, the error Redis
// answered it with ("" when none).
func (c *Cache) hmgetEach(ctx context.Context, op string, keys []string, fields ...string) ([]int64, []string, error) {
	out := make([]int64, len(keys))
	replyErrs := make([]string, len(keys))
	if len(keys) == 0 {
		return out, replyErrs, nil
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()
	cmds := make([]*redis.SliceCmd, len(keys))
	err := c.pipelined(ctx, func(p redis.Pipeliner) {
		for i, k := range keys {
			cmds[i] = p.HMGet(ctx, k, fields...)
		}
	})
	if err != nil && !isReplyError(err) {
		return nil, nil, c.fail(op, err)
	}
	for i, cmd := range cmds {
		out[i] = -1
		vals, err := cmd.Result()
		if err != nil && !isReplyError(err) {
			return nil, nil, c.fail(op, err)
		}
		if err != nil {
			replyErrs[i] = err.Error()
			continue
		}
		if len(vals) != len(fields) || !allNil(vals[1:]) {
			continue
		}
		s, ok := vals[0].(string)
		if !ok {
			continue
		}
		n, perr := strconv.ParseInt(s, 10, 64)
		if perr != nil || n < 0 {
			c.badValues.Add(1)
			continue
		}
		out[i] = n
	}
	return out, replyErrs, nil
}

func allNil(vals []any) bool {
	for _, v := range vals {
		if v != nil {
			return false
		}
	}
	return true
}

func byCid(cids []string, vals []int64) map[string]int64 {
	out := make(map[string]int64, len(cids))
	for i, cid := range cids {
		if vals[i] >= 0 {
			out[cid] = vals[i]
		}
	}
	return out
}

// raiseValue sets field value of KEYS[1] to ARGV[1] when that is larger and
// then gives the key ARGV[2] more seconds to live, atomically, as OpenIM's
// SetUserReadSeq does (rockscache RawSet: HSET value, EXPIRE). A key
// without a value is left alone: the server fills it from seq_user, which
// the caller has raised already, and writing a value here could put a
// lower read seq in front of a higher one in MongoDB.
var raiseValue = redis.NewScript(`
local cur = redis.call('HGET', KEYS[1], 'value')
if not cur then return -1 end
local want = tonumber(ARGV[1])
if tonumber(cur) == nil or want > tonumber(cur) then
  redis.call('HSET', KEYS[1], 'value', ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  return want
end
return tonumber(cur)`)

// RaiseReadSeq raises SEQ_USER_READ:<cid>:<uid> to seq, never lowering it
// (one Lua script, so concurrent raises cannot interleave).
func (c *Cache) RaiseReadSeq(ctx context.Context, cid, uid string, seq int64) error {
	ctx, cancel := c.bound(ctx)
	defer cancel()
	key := SeqUserReadKey(cid, uid)
	failed, err := c.runPerKey(ctx, raiseValue, []string{key}, seq, readSeqTTL)
	if len(failed) > 0 {
		return c.fail("raise "+key, err)
	}
	return nil
}
