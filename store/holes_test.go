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

// TestHoleSendTimes: the send time of the stand-in OpenIM returns for a
// hole (mgo/msg.go FindSeqs with findBeforeSendTime) is that of the newest
// stored message before it, looked for in its own bucket up to it, then in
// the buckets below; a seq that ends a bucket starts from the bucket below.
func TestHoleSendTimes(t *testing.T) {
	const cid = "sg_g1"
	b := newBackend(t)
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
	times := func(h *store.HoleSendTimes, index int64) [store.BucketSize]int64 {
		bs, err := s.Buckets(t.Context(), cid, []int64{index}, 500)
		if err != nil {
			t.Fatal(err)
		}
		got, err := h.Bucket(t.Context(), bs[0])
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	h := s.HoleSendTimes(cid)
	b0, b1 := times(h, 0), times(h, 1)
	for _, c := range []struct {
		seq, want int64
		why       string
	}{
		{11, at(10), "after seq 10 in the same bucket"},
		{99, at(10), "the newest before it, however far"},
		{100, 0, "ends bucket 0: OpenIM looks only below it, and nothing is there"},
		{101, at(10), "start of bucket 1: the newest of bucket 0"},
		{161, at(160), "after seq 160"},
		{200, at(10), "ends bucket 1: bucket 1 is skipped, bucket 0 holds seq 10"},
	} {
		got := b0
		if c.seq > 100 {
			got = b1
		}
		if v := got[store.SlotIndex(c.seq)]; v != c.want {
			t.Errorf("hole %d: send time %d, want %d (%s)", c.seq, v, c.want, c.why)
		}
	}
	// Starting past missing buckets, the newest stored message below is found.
	start := s.Stats().RoundTrips
	b4 := times(s.HoleSendTimes(cid), 4)
	if got := b4[store.SlotIndex(401)]; got != at(160) {
		t.Errorf("hole 401 read alone: send time %d, want seq 160's %d", got, at(160))
	}
	if trips := s.Stats().RoundTrips - start; trips != 3 {
		t.Errorf("%d round trips, want 3: bucket 4, the doc_id list, one find below", trips)
	}
}
