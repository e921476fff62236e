package storetest

import (
	"bytes"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// testAddressing stores single messages at the OPENIM.md test vectors and
// the off-by-one seqs around bucket edges, and finds each in the document
// and slot the rules name.
func testAddressing(e *fixture) {
	const cid = "sg_addr"
	for _, v := range []struct {
		seq    int64
		suffix string
		slot   int
	}{
		{1, ":0", 0}, {100, ":0", 99}, {101, ":1", 0}, {250, ":2", 49}, {10086, ":100", 85},
		{99, ":0", 98}, {200, ":1", 99}, {201, ":2", 0},
	} {
		if got := bucket.DocIDForSeq(cid, v.seq); got != cid+v.suffix {
			e.errorf("seq %d: doc_id %s, want %s", v.seq, got, cid+v.suffix)
		}
		if got := bucket.SlotIndex(v.seq); got != v.slot {
			e.errorf("seq %d: slot %d, want %d", v.seq, got, v.slot)
		}
		e.insert(cid, v.seq, v.seq)
		slots := e.slots(cid + v.suffix)
		if len(slots) != bucket.BucketSize {
			e.fatalf("%s has %d slots", cid+v.suffix, len(slots))
		}
		s := e.slot(slots[v.slot])
		e.wantMessage(cid, v.seq, &s)
	}
	// 100 and 101 share no bucket: 101 did not overwrite 100.
	s := e.slot(e.slots(cid + ":0")[99])
	e.wantMessage(cid, 100, &s)
}

func testInsertOneBucket(e *fixture) {
	const cid = "si_alice_bob"
	e.insert(cid, 1, 10)
	slots := e.slots(cid + ":0")
	if len(slots) != bucket.BucketSize {
		e.fatalf("bucket has %d slots, want %d", len(slots), bucket.BucketSize)
	}
	for i := range 10 {
		s := e.slot(slots[i])
		e.wantMessage(cid, int64(i+1), &s)
	}
	for i := 10; i < bucket.BucketSize; i++ {
		if err := wantEmptySlot(slots[i]); err != nil {
			e.errorf("slot %d: %v", i, err)
		}
	}
	// Every MsgData field is stored, absent values as null, never omitted.
	msg := slots[0].Document().Lookup("msg").Document()
	elems, err := msg.Elements()
	e.must(err, "read msg")
	want := []string{"send_id", "recv_id", "group_id", "client_msg_id", "server_msg_id", "sender_platform_id",
		"sender_nickname", "sender_face_url", "session_type", "msg_from", "content_type", "content", "seq",
		"send_time", "create_time", "status", "is_read", "options", "offline_push", "at_user_id_list",
		"attached_info", "ex"}
	var got []string
	for _, el := range elems {
		got = append(got, el.Key())
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		e.errorf("stored msg fields %v, want %v", got, want)
	}
	if v := msg.Lookup("offline_push"); v.Type != bson.TypeNull {
		e.errorf("absent offline_push stored as %s, want null", v.Type)
	}
	if e.doc(cid+":1") != nil {
		e.errorf("a batch within bucket 0 created bucket 1")
	}
	recs, err := e.b.SeqRecords(e.ctx, []string{cid})
	e.must(err, "seq records")
	if len(recs) != 1 || recs[0].MaxSeq != 10 {
		e.errorf("seq records after inserting 1..10: %+v, want max_seq 10", recs)
	}
}

func testInsertSpansBuckets(e *fixture) {
	const cid = "sg_span"
	e.insert(cid, 95, 310)
	for idx := int64(0); idx <= 3; idx++ {
		slots := e.slots(bucket.DocID(cid, idx))
		if len(slots) != bucket.BucketSize {
			e.fatalf("bucket %d has %d slots", idx, len(slots))
		}
		for i, v := range slots {
			seq := bucket.FirstSeq(idx) + int64(i)
			if seq < 95 || seq > 310 {
				if err := wantEmptySlot(v); err != nil {
					e.errorf("seq %d: %v", seq, err)
				}
				continue
			}
			s := e.slot(v)
			e.wantMessage(cid, seq, &s)
		}
	}
	if e.doc(cid+":4") != nil {
		e.errorf("bucket 4 exists after inserting 95..310")
	}
}

func testInsertReplayed(e *fixture) {
	// Small on purpose: a replay is one update per seq, and FerretDB scans
	// the collection on each.
	const cid = "sg_replay"
	ids := []string{cid + ":0", cid + ":1"}
	e.insert(cid, 95, 106)
	before := map[string][]byte{}
	for _, id := range ids {
		before[id] = e.doc(id).Lookup("msgs").Value
	}
	e.insert(cid, 95, 106)
	for _, id := range ids {
		if after := e.doc(id).Lookup("msgs").Value; !bytes.Equal(before[id], after) {
			e.errorf("%s: msgs array changed when the same batch was delivered again", id)
		}
	}
}

func testInsertBucketExists(e *fixture) {
	const cid = "sg_exists"
	doc := bucket.NewDoc(cid + ":0")
	for seq := int64(61); seq <= 70; seq++ {
		doc.Msgs[bucket.SlotIndex(seq)].Msg = newMsg(cid, seq)
		doc.Msgs[bucket.SlotIndex(seq)].Msg.Seq = seq
	}
	e.must(e.b.InsertBucket(e.ctx, doc), "pre-insert bucket 0")
	e.insert(cid, 1, 10)
	e.insert(cid, 95, 105)
	slots := e.slots(cid + ":0")
	for i, v := range slots {
		seq := int64(i + 1)
		if seq <= 10 || seq >= 61 && seq <= 70 || seq >= 95 {
			s := e.slot(v)
			e.wantMessage(cid, seq, &s)
		} else if err := wantEmptySlot(v); err != nil {
			e.errorf("seq %d: %v", seq, err)
		}
	}
	if n := len(e.slots(cid + ":1")); n != bucket.BucketSize {
		e.errorf("bucket 1 has %d slots", n)
	}
}

// testDuplicateKeyRace lets another writer create the bucket between the
// state machine's failed update and its insert: the insert meets a duplicate
// key, and the machine steps back to updating, keeping both writes.
func testDuplicateKeyRace(e *fixture) {
	const cid = "sg_race"
	other := bucket.NewDoc(cid + ":0")
	other.Msgs[49].Msg = newMsg(cid, 50)
	other.Msgs[49].Msg.Seq = 50
	if err := e.b.InsertBucket(e.ctx, other); err != nil {
		e.fatalf("insert bucket: %v", err)
	}
	if err := e.b.InsertBucket(e.ctx, bucket.NewDoc(cid+":0")); !errors.Is(err, store.ErrDuplicateKey) {
		e.fatalf("second insert of %s:0: %v, want store.ErrDuplicateKey", cid, err)
	}

	racing := &racingBackend{Backend: e.b, raced: map[string]bool{}, race: func(docID string) error {
		d := bucket.NewDoc(docID)
		d.Msgs[99].Msg = newMsg(cid, 200)
		d.Msgs[99].Msg.Seq = 200
		return e.b.InsertBucket(e.ctx, d)
	}}
	s := store.New(racing, store.Options{})
	msgs := []*bucket.MsgData{newMsg(cid, 101), newMsg(cid, 102)}
	if _, err := s.InsertMessages(e.ctx, cid, 101, msgs); err != nil {
		e.fatalf("insert during a race: %v", err)
	}
	if !errors.Is(racing.dupErr, store.ErrDuplicateKey) {
		e.errorf("the state machine's insert got %v, want store.ErrDuplicateKey", racing.dupErr)
	}
	slots := e.slots(cid + ":1")
	for _, seq := range []int64{101, 102, 200} {
		s := e.slot(slots[bucket.SlotIndex(seq)])
		e.wantMessage(cid, seq, &s)
	}
	if err := wantEmptySlot(slots[2]); err != nil {
		e.errorf("seq 103: %v", err)
	}
}

func testEmptySlots(e *fixture) {
	const cid = "si_a_b"
	e.insert(cid, 250, 250)
	slots := e.slots(cid + ":2")
	if len(slots) != bucket.BucketSize {
		e.fatalf("bucket has %d slots, want %d", len(slots), bucket.BucketSize)
	}
	for i, v := range slots {
		if i == 49 {
			continue
		}
		if err := wantEmptySlot(v); err != nil {
			e.errorf("slot %d: %v", i, err)
		}
	}
	doc := e.doc(cid + ":2")
	if id, err := doc.LookupErr("_id"); err != nil || id.Type != bson.TypeObjectID {
		e.errorf("bucket _id is %v (%v), want an ObjectID", id.Type, err)
	}
	if e.doc(cid+":0") != nil || e.doc(cid+":1") != nil {
		e.errorf("inserting seq 250 created buckets before it")
	}
}
