package rediscache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// Slots reads MSG_CACHE:<cid>:<seq> of every seq in one pipeline (one round
// trip; one per node in a Cluster, sent in parallel). A key is a hit only
// when it has a value and no lockUntil field (rockscache: a locked key is
// being rebuilt or was tagged as deleted). A value that does not decode is a
// miss, counted in Stats().BadValues.
func (c *Cache) Slots(ctx context.Context, cid string, seqs []int64) (map[int64]*bucket.Slot, error) {
	out := make(map[int64]*bucket.Slot, len(seqs))
	if len(seqs) == 0 {
		return out, nil
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()
	cmds := make([]*redis.SliceCmd, len(seqs))
	err := c.pipelined(ctx, func(p redis.Pipeliner) {
		for i, seq := range seqs {
			cmds[i] = p.HMGet(ctx, MsgCacheKey(cid, seq), fieldValue, fieldLockUntil)
		}
	})
	if err != nil && !isReplyError(err) {
		return nil, c.fail("read "+msgCachePrefix+cid, err)
	}
	for i, cmd := range cmds {
		vals, err := cmd.Result()
		switch {
		case err != nil && !isReplyError(err):
			return nil, c.fail("read "+msgCachePrefix+cid, err)
		case err != nil: // e.g. WRONGTYPE: not a rockscache hash
			c.badValues.Add(1)
			continue
		case len(vals) != 2 || vals[1] != nil:
			continue // locked: rebuilding or tagged as deleted
		}
		raw, ok := vals[0].(string)
		if !ok {
			continue // no value: a plain miss
		}
		slot, ok := decodeSlot(raw)
		if !ok {
			c.badValues.Add(1)
			continue
		}
		if standIn(slot) {
			continue // MongoDB tells a seq never sent from a physically deleted message; the stand-in cannot
		}
		out[seqs[i]] = slot
	}
	return out, nil
}

// standIn reports the value OpenIM caches for a seq that holds no message
// (mgo/msg.go FindSeqs: {Seq, Status 4, the previous message's SendTime},
// no sender): the same for a seq never sent and for a message physically
// deleted, so it is read as a miss.
func standIn(slot *bucket.Slot) bool {
	m := slot.Msg
	return m != nil && m.Status == bucket.StatusDeleted && m.SendID == "" && m.ContentType == 0 && m.ClientMsgID == ""
}

// decodeSlot parses a MSG_CACHE value: JSON of the slot with Go field names.
func decodeSlot(raw string) (*bucket.Slot, bool) {
	var slot *bucket.Slot
	if err := json.Unmarshal([]byte(raw), &slot); err != nil || slot == nil {
		return nil, false
	}
	return slot, true
}

// tagAsDeleted is rockscache's TagAsDeleted, one key per script so it is
// atomic and never spans Cluster slots: the value stays but is locked, so
// every reader treats it as a miss and rebuilds from MongoDB; the key expires.
var tagAsDeleted = redis.NewScript(`
redis.call('HSET', KEYS[1], 'lockUntil', 0)
redis.call('HDEL', KEYS[1], 'lockOwner')
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1`)

// Invalidate tags MSG_CACHE:<cid>:<seq> of every seq as deleted the way the
// server does (HSET lockUntil 0, HDEL lockOwner, EXPIRE 10; never DEL), in
// one pipeline. The error names every key that could not be tagged.
func (c *Cache) Invalidate(ctx context.Context, cid string, seqs []int64) error {
	if len(seqs) == 0 {
		return nil
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()
	keys := make([]string, len(seqs))
	for i, seq := range seqs {
		keys[i] = MsgCacheKey(cid, seq)
	}
	failed, err := c.runPerKey(ctx, tagAsDeleted, keys, deletedTTL)
	if len(failed) == 0 {
		return nil
	}
	return c.fail("tag as deleted", fmt.Errorf("%d of %d keys not invalidated (%s): %w",
		len(failed), len(keys), nameKeys(cid, seqs, failed), err))
}

// nameKeys lists the failed keys, or for many of them their common form
// and the seqs, so the operator can act on them.
func nameKeys(cid string, seqs []int64, failed []int) string {
	if len(failed) <= 8 {
		names := make([]string, len(failed))
		for i, f := range failed {
			names[i] = MsgCacheKey(cid, seqs[f])
		}
		return strings.Join(names, " ")
	}
	bad := make([]int64, len(failed))
	for i, f := range failed {
		bad[i] = seqs[f]
	}
	return msgCachePrefix + cid + ":<seq> for seq " + store.FormatSeqs(bad)
}

// runPerKey runs script once per key in one pipeline (EVALSHA; when the
// server does not know the script yet, one more pipeline with EVAL). It
// returns the indexes of the keys whose script failed and the first failure.
func (c *Cache) runPerKey(ctx context.Context, s *redis.Script, keys []string, args ...any) ([]int, error) {
	run := func(keys []string, sha bool) []*redis.Cmd {
		cmds := make([]*redis.Cmd, len(keys))
		_ = c.pipelined(ctx, func(p redis.Pipeliner) {
			for i, k := range keys {
				if sha {
					cmds[i] = s.EvalSha(ctx, p, []string{k}, args...)
				} else {
					cmds[i] = s.Eval(ctx, p, []string{k}, args...)
				}
			}
		})
		return cmds
	}
	var failed, retry []int
	var first error
	note := func(i int, err error) {
		if err != nil && !errors.Is(err, redis.Nil) {
			failed = append(failed, i)
			if first == nil {
				first = err
			}
		}
	}
	for i, cmd := range run(keys, true) {
		if redis.HasErrorPrefix(cmd.Err(), "NOSCRIPT") {
			retry = append(retry, i)
		} else {
			note(i, cmd.Err())
		}
	}
	if len(retry) > 0 {
		again := make([]string, len(retry))
		for j, i := range retry {
			again[j] = keys[i]
		}
		for j, cmd := range run(again, false) {
			note(retry[j], cmd.Err())
		}
	}
	sort.Ints(failed)
	return failed, first
}

// isReplyError is a per-command error reply (e.g. WRONGTYPE), which spoils
// one key, as opposed to a connection failure, which spoils the call.
func isReplyError(err error) bool {
	var re redis.Error
	return errors.As(err, &re) && !errors.Is(err, redis.Nil)
}
