package rediscache

import (
	"context"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/testkit"
)

// A SEQ_USER_MIN key left as a plain string is one the server cannot read
// (cache/redis/seq_user.go GetUserMinSeq: a rockscache HGET answers
// WRONGTYPE), so its pull skips the conversation for that user
// (controller/msg.go GetMsgBySeqsRange returns the error; sync_msg.go
// PullMessageBySeqs continues). The window must say so, naming the key,
// rather than fall back to seq_user and show the messages.
func TestStringSeqUserMinPullsNothing(t *testing.T) {
	srv := newServer(t)
	s := openStore(t, testkit.TempBackend(t), srv.addr)
	cid := srv.newCid(t)
	other := srv.newCid(t)
	ctx := context.Background()
	insert(t, s, cid, 1, 5)
	insert(t, s, other, 1, 5)
	key := SeqUserMinKey(cid, "u2")
	if err := srv.raw.Set(ctx, key, "3", 0).Err(); err != nil {
		t.Fatal(err)
	}

	ws, err := s.Windows(ctx, "u2", []string{cid, other}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := ws[cid]
	if !w.PulledNothing() || w.UnreadableMinKey != key || !strings.Contains(w.UnreadableMinErr, "WRONGTYPE") {
		t.Fatalf("window %+v: want pulled nothing, key %s unreadable with WRONGTYPE", *w, key)
	}
	why := w.UnpulledReason("u2")
	if !strings.Contains(why, "Redis key "+key+" is not the hash the server reads (WRONGTYPE") || !strings.Contains(why, "PullMessageBySeqs") {
		t.Errorf("reason %q: want the key, the error and the server's pull named", why)
	}
	if o := ws[other]; o.PulledNothing() || o.MaxSeq != 5 {
		t.Errorf("the other conversation's window %+v: want seq 1-5 pulled", *o)
	}
}
