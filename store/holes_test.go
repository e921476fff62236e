package store_test

import (
	"errors"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check/checktest"
	"github.com/chatlens/chatlens/store/testkit"
)

// standIn is the slot OpenIM caches in Redis for a seq that holds no
// message (mgo/msg.go FindSeqs, cached by cache/redis/msg.go
// GetMessageBySeqs): seq, status 4 and the previous message's send time.
func standIn(seq, prevSendTime int64) *bucket.Slot {
	return &bucket.Slot{Msg: &bucket.MsgData{Seq: seq, Status: bucket.StatusDeleted, SendTime: prevSendTime}}
}

// TestCachedStandInIsAHole: with the cache layer on, a stand-in read from
// Redis is a hole: a revoke of it is refused as "msg not found", and a
// delete for me passes, as the server's does (delete.go DeleteMsgs
// checks nothing), as it does without the cache.
func TestCachedStandInIsAHole(t *testing.T) {
	const cid = "sg_g1"
	cache := newFakeCache()
	b := testkit.TempBackend(t)
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
			err = s.CheckTargets(t.Context(), cid, "m1", []int64{5}, store.ActionRevoke)
			var te *store.TargetError
			if !errors.As(err, &te) || !strings.Contains(err.Error(), "msg not found") {
				t.Errorf("revoke of the stand-in: %v, want refused as msg not found", err)
			}
			if err := s.CheckTargets(t.Context(), cid, "m1", []int64{5}, store.ActionDelete); err != nil {
				t.Errorf("delete of the stand-in: %v, want it passed as the server passes it", err)
			}
		})
	}
}

// TestCachedSeqMismatchIsMarked: a cached message whose seq disagrees with
// its key gets the marker a stored one gets at the same place.
func TestCachedSeqMismatchIsMarked(t *testing.T) {
	cache := newFakeCache()
	s := seeded(t, "sg_g1", 10, store.Options{Cache: cache})
	cache.slots[6] = &bucket.Slot{Msg: &bucket.MsgData{SendID: "m1", ContentType: 101, Content: `{"content":"x"}`, Seq: 7, SendTime: 1700000000000}}
	bs, err := s.Buckets(t.Context(), "sg_g1", []int64{0}, 10)
	if err != nil {
		t.Fatal(err)
	}
	stored := bucket.DecodeBucket(checktest.Raw(checktest.Bucket(checktest.DocID, checktest.WithMsgField(5, "seq", int64(7)))))
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
	b := testkit.TempBackend(t)
	slots := checktest.CleanSlots() // messages at 1..30, a hole at 20
	slots[30] = checktest.Slot(checktest.With(checktest.Message(31, 101, `{"content":"newest"}`), "send_id", int64(12345)), nil, bson.A{}, false)
	testkit.Insert(t, b, bucket.CollMsg, checktest.Bucket(bucket.DocID(cid, 0), slots))
	testkit.Insert(t, b, bucket.CollSeq, bson.D{{Key: "conversation_id", Value: cid}, {Key: "max_seq", Value: int64(100)}, {Key: "min_seq", Value: int64(0)}})
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

// TestHoleSendTimes: the send times of the stand-ins OpenIM returns for the
// holes of one pull (mgo/msg.go FindSeqs with findBeforeSendTime): holes
// are taken newest first; each gets the newest stored message before it
// (its own bucket up to it, then the buckets below; a seq that ends a
// bucket skips its own bucket), a lower hole at or above the message found
// reuses that answer, and a hole with nothing before it stops the search,
// leaving 0 to it and every lower hole.
func TestHoleSendTimes(t *testing.T) {
	const cid = "sg_g1"
	b := testkit.TempBackend(t)
	s := store.New(b, store.Options{})
	at := func(seq int64) int64 { return 1700000000000 + seq*1000 }
	put := func(first, last int64) {
		msgs := textMsgs(int(last - first + 1))
		for i, m := range msgs {
			m.SendTime = at(first + int64(i))
		}
		if _, err := s.InsertMessages(t.Context(), cid, first, msgs); err != nil {
			t.Fatal(err)
		}
	}
	put(1, 10)    // bucket 0: 1..10, holes 11..100
	put(150, 160) // bucket 1: 150..160, holes 101..149 and 161..200
	put(450, 451) // bucket 4 (2 and 3 not stored): holes 401..449
	ws, err := s.Windows(t.Context(), "m1", []string{cid}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from, to int64
		want     map[int64]int64 // hole -> send time
		why      string
	}{
		{1, 451, map[int64]int64{11: at(10), 99: at(10), 100: at(10), 149: at(10), 161: at(160), 200: at(160), 300: at(160), 449: at(160)},
			"the whole conversation: each run of holes gets the message below it, seq 100 and 200 too (answers reused)"},
		{90, 100, map[int64]int64{90: 0, 99: 0, 100: 0},
			"seq 100 ends bucket 0 and is searched first: nothing below bucket 0, so the search stops"},
		{90, 99, map[int64]int64{90: at(10), 99: at(10)}, "the message before them"},
		{195, 200, map[int64]int64{195: at(10), 199: at(10), 200: at(10)},
			"seq 200 skips bucket 1 and finds seq 10; the lower holes reuse that"},
		{401, 449, map[int64]int64{401: at(160), 449: at(160)}, "past buckets 2 and 3, not stored, to seq 160"},
	} {
		h, err := s.HoleSendTimes(t.Context(), ws[cid], c.from, c.to)
		if err != nil {
			t.Fatal(err)
		}
		for seq, want := range c.want {
			if got := h.At(seq); got != want {
				t.Errorf("pull %d..%d: hole %d gets %d, want %d (%s)", c.from, c.to, seq, got, want, c.why)
			}
		}
	}
}
