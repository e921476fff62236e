package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// TestStringSeqUserMinDumpsNothing: with SEQ_USER_MIN:sg_dg1:dpa a plain
// string, not the rockscache hash the server reads, the server's
// GetUserMinSeq fails with WRONGTYPE and PullMessageBySeqs (internal/rpc/
// msg/sync_msg.go) skips sg_dg1 for dpa: dump --as dpa with that Redis
// prints nothing and says why in one line naming the key; without Redis
// dump shows dpa the messages.
func TestStringSeqUserMinDumpsNothing(t *testing.T) {
	t.Parallel()
	s := clearedGroup(t)
	addr := os.Getenv("CHATLENS_TEST_REDIS")
	if addr == "" {
		addr = miniredis.RunT(t).Addr()
	}
	rdb := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, DisableIdentity: true})
	ctx := context.Background()
	key := "SEQ_USER_MIN:sg_dg1:dpa"
	t.Cleanup(func() { rdb.Del(context.Background(), key); _ = rdb.Close() })
	if err := rdb.Set(ctx, key, "0", 0).Err(); err != nil {
		t.Fatalf("redis at %s: %v", addr, err)
	}
	redisURL := fmt.Sprintf("redis://%s/0", addr)

	res := s.chatlens(t, "dump", "--conversation", "sg_dg1", "--as", "dpa", "--redis", redisURL)
	if res.code != 0 || strings.TrimSpace(res.stdout) != "" {
		t.Errorf("dump --as dpa: exit %d, stdout %q; want no rows (the server pulls dpa none)", res.code, res.stdout)
	}
	want := "Redis key " + key + " is not the hash the server reads (WRONGTYPE"
	if lines := strings.Split(strings.TrimSpace(res.stderr), "\n"); !strings.Contains(res.stderr, want) || len(lines) != 1 {
		t.Errorf("dump --as dpa: stderr %q; want one line saying %q", res.stderr, want)
	}
	if res := s.chatlens(t, "dump", "--conversation", "sg_dg1", "--as", "dpa"); res.code != 0 || strings.Count(res.stdout, "\n") < 11 {
		t.Errorf("dump --as dpa without Redis: exit %d, stdout %q; want its 11 messages", res.code, res.stdout)
	}
}
