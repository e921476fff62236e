package store_test

import (
	"errors"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/check/checktest"
)

// standIn is the slot OpenIM caches in Redis for a seq that holds no
// message (mgo/msg.go FindSeqs, cached by cache/redis/msg.go
// GetMessageBySeqs): seq, status 4 and the previous message's send time.
func standIn(seq, prevSendTime int64) *store.Slot {
	return &store.Slot{Msg: &store.MsgData{Seq: seq, Status: store.StatusDeleted, SendTime: prevSendTime}}
}

// TestCachedStandInIsAHole: with the cache layer on, a stand-in read from
// Redis is a hole, and a revoke or delete of it is refused as "msg not
// found", as it is without the cache.
func TestCachedStandInIsAHole(t *testing.T) {
	const cid = "sg_g1"
	cache := newFakeCache()
	b := newBackend(t)
	plain := store.New(b, store.Options{})
	for _, r := range [][2]int{{1, 4}, {6, 10}} { // seq 5 is a hole
		if _, err := plain.InsertMessages(t.Context(), cid, int64(r[0]), textMsgs(r[1]-r[0]+1)); err != nil {
			t.Fatal(err)
		}
	}
	cache.slots[5] = standIn(5, 1700000000000)
	for name, s := range map[string]*store.Store{"without the cache": plain, "with the cache": store.New(b, store.Options{Cache: cache})} {
		t.Run(name, func(t *testing.T) {
			bs, err := s.Buckets(t.Context(), cid, []int64{0}, 10)
			if err != nil {
				t.Fatal(err)
			}
			if st := bs[0].Slots[4]; !st.IsHole() || st.Problem != "" {
				t.Errorf("seq 5 = %+v, want a hole without a marker", st)
			}
			for _, action := range []string{store.ActionRevoke, store.ActionDelete} {
				err := s.CheckTargets(t.Context(), cid, "m1", []int64{5}, action)
				var te *store.TargetError
				if !errors.As(err, &te) || !strings.Contains(err.Error(), "msg not found") {
					t.Errorf("%s of the stand-in: %v, want refused as msg not found", action, err)
				}
			}
		})
	}
}

// TestCachedSeqMismatchIsMarked: a cached message whose seq disagrees with
// its key gets the marker a stored one gets at the same place.
func TestCachedSeqMismatchIsMarked(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "sg_g1", 10, store.Options{Cache: cache})
	cache.slots[6] = &store.Slot{Msg: &store.MsgData{SendID: "m1", ContentType: 101, Content: `{"content":"x"}`, Seq: 7, SendTime: 1700000000000}}
	bs, err := s.Buckets(t.Context(), "sg_g1", []int64{0}, 10)
	if err != nil {
		t.Fatal(err)
	}
	stored := store.DecodeBucket(checktest.Raw(checktest.Bucket(checktest.Cid+":0", checktest.WithMsgField(5, "seq", int64(7)))))
	got, want := bs[0].Slots[5], stored.Slots[5].Problem
	if !got.Cached || want == "" || got.Problem != want {
		t.Errorf("cached seq 6 holding seq 7: cached %v, marker %q; want the store path's %q", got.Cached, got.Problem, want)
	}
}

// TestMalformedNewestMessageIsStillASlot: when the newest message has a
// field of the wrong type, the window still ends at it, so it is shown
// (with its marker) and a write aimed at it is not "beyond the last message".
func TestMalformedNewestMessageIsStillASlot(t *testing.T) {
	cid := checktest.Cid
	b := newBackend(t)
	slots := checktest.CleanSlots() // messages at 1..30, a hole at 20
	slots[30] = checktest.Slot(checktest.With(checktest.Message(31, 101, `{"content":"newest"}`), "send_id", int64(12345)), nil, bson.A{}, false)
	if err := b.InsertRaw(t.Context(), store.CollMsg, []bson.Raw{checktest.Raw(checktest.Bucket(cid+":0", slots))}); err != nil {
		t.Fatal(err)
	}
	seqDoc := bson.D{{Key: "conversation_id", Value: cid}, {Key: "max_seq", Value: int64(100)}, {Key: "min_seq", Value: int64(0)}}
	if err := b.InsertRaw(t.Context(), store.CollSeq, []bson.Raw{checktest.Raw(seqDoc)}); err != nil {
		t.Fatal(err)
	}
	s := store.New(b, store.Options{})
	ws, err := s.Windows(t.Context(), checktest.Alice, []string{cid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := ws[cid].MaxSeq; got != 31 {
		t.Errorf("window ends at %d, want 31 (the malformed newest message)", got)
	}
	if ws[cid].Last == nil || ws[cid].Last.Slots[30].Problem == "" {
		t.Errorf("seq 31 carries no malformed marker")
	}
	err = s.CheckTargets(t.Context(), cid, checktest.Alice, []int64{31}, store.ActionRevoke)
	if err != nil && strings.Contains(err.Error(), "beyond the last message") {
		t.Errorf("revoke of seq 31: %v", err)
	}
}
