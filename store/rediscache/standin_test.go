package rediscache

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/testkit"
)

// openIMStandIn is the MSG_CACHE value OpenIM writes for a seq that holds
// no message: mgo/msg.go FindSeqs makes {Seq, Status 4, SendTime of the
// previous message} and cache/redis/batch.go batchGetCache2 stores it as
// json.Marshal of model.MsgInfoModel (Go field names, no tags).
const openIMStandIn = `{"Msg":{"SendID":"","RecvID":"","GroupID":"","ClientMsgID":"","ServerMsgID":"",` +
	`"SenderPlatformID":0,"SenderNickname":"","SenderFaceURL":"","SessionType":0,"MsgFrom":0,"ContentType":0,` +
	`"Content":"","Seq":2,"SendTime":1700000000001,"CreateTime":0,"Status":4,"IsRead":false,"Options":null,` +
	`"OfflinePush":null,"AtUserIDList":null,"AttachedInfo":"","Ex":""},"Revoke":null,"DelList":null,"IsRead":false}`

// TestOpenIMStandInReadsAsAHole: OpenIM caches the same stand-in for a
// seq never sent and for a message physically deleted (a timed run on the
// real server cached it for a delete for everyone), so it is read as a
// miss: MongoDB says which (here a hole, never a deleted message with empty
// content), and a revoke of it is refused as "msg not found".
func TestOpenIMStandInReadsAsAHole(t *testing.T) {
	srv := newServer(t)
	backend := testkit.TempBackend(t)
	s := openStore(t, backend, srv.addr)
	cid := srv.newCid(t)
	insert(t, s, cid, 1, 1)
	insert(t, s, cid, 3, 1) // seq 2 is a hole
	ctx := context.Background()
	key := MsgCacheKey(cid, 2)
	if err := srv.raw.HSet(ctx, key, fieldValue, openIMStandIn).Err(); err != nil {
		t.Fatal(err)
	}
	srv.raw.Expire(ctx, key, 24*time.Hour)
	got := slotOf(t, s, cid, 2, 3)
	if got.Cached || !got.IsHole() || got.Problem != "" {
		t.Fatalf("seq 2 with the stand-in in Redis = %+v (cached %v), want a hole read from the backend, without a marker", got.Slot, got.Cached)
	}
	err := s.CheckTargets(ctx, cid, "u1", []int64{2}, store.ActionRevoke)
	var te *store.TargetError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "msg not found") {
		t.Errorf("revoke of the stand-in: %v, want refused as msg not found", err)
	}
}
