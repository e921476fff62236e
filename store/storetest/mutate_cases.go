package storetest

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

func testRevoke(e *fixture) {
	const cid = "sg_revoke"
	e.insert(cid, 1, 5)
	rev := bucket.Revoke{Role: bucket.RoleAdmin, UserID: "admin1", Nickname: "Admin", Time: 1700000099000}
	_, err := e.s.Revoke(e.ctx, cid, []int64{3, 250}, rev)
	e.must(err, "revoke 3 and 250")

	s := e.slot(e.slots(cid + ":0")[2])
	e.wantMessage(cid, 3, &s) // revoke keeps the message; the viewer's projection hides it
	if s.Revoke == nil || *s.Revoke != rev {
		e.errorf("seq 3 revoke = %+v, want %+v", s.Revoke, rev)
	}
	raw := e.slots(cid + ":0")[2].Document().Lookup("revoke").Document()
	for field, typ := range map[string]bson.Type{"role": bson.TypeInt32, "user_id": bson.TypeString,
		"nickname": bson.TypeString, "time": bson.TypeInt64} {
		if got := raw.Lookup(field).Type; got != typ {
			e.errorf("revoke.%s stored as %s, want %s", field, got, typ)
		}
	}
	if s := e.slot(e.slots(cid + ":0")[3]); s.Revoke != nil {
		e.errorf("seq 4 was revoked too")
	}

	// Seq 250's bucket did not exist: revoke creates it, as the server does.
	slots := e.slots(cid + ":2")
	if len(slots) != bucket.BucketSize {
		e.fatalf("created bucket has %d slots", len(slots))
	}
	if s := e.slot(slots[49]); s.Revoke == nil || *s.Revoke != rev || s.Msg != nil {
		e.errorf("seq 250 in the created bucket: revoke %+v msg %+v", s.Revoke, s.Msg)
	}
	if err := wantEmptySlot(slots[48]); err != nil {
		e.errorf("seq 249 in the created bucket: %v", err)
	}
}

func testDeleteForMe(e *fixture) {
	const cid = "si_u1_u2"
	e.insert(cid, 1, 3)
	for _, uid := range []string{"u1", "u1", "u2"} {
		_, err := e.s.DeleteForMe(e.ctx, cid, []int64{2}, uid)
		e.must(err, "delete seq 2 for "+uid)
	}
	slots := e.slots(cid + ":0")
	if got := e.slot(slots[1]).DelList; !slices.Equal(got, []string{"u1", "u2"}) {
		e.errorf("del_list of seq 2 = %q, want [u1 u2] (u1 twice must leave one entry)", got)
	}
	for _, i := range []int{0, 2} {
		if got := e.slot(slots[i]).DelList; len(got) != 0 {
			e.errorf("del_list of seq %d = %q, want empty", i+1, got)
		}
	}
	// Deleting in a bucket that does not exist creates nothing.
	_, err := e.s.DeleteForMe(e.ctx, cid, []int64{150}, "u1")
	e.must(err, "delete seq 150")
	if e.doc(cid+":1") != nil {
		e.errorf("delete-for-me created a bucket")
	}
}

func testMarkReadSingle(e *fixture) {
	const cid = "si_alice_bob" // alice sends odd seqs, bob even ones
	e.insert(cid, 1, 6)
	_, err := e.s.MarkRead(e.ctx, cid, []int64{1, 2, 3, 4}, "bob")
	e.must(err, "mark 1..4 read by bob")
	slots := e.slots(cid + ":0")
	for i, want := range []bool{true, false, true, false, false, false} {
		if got := e.slot(slots[i]).IsRead; got != want {
			e.errorf("seq %d (sent by %s) is_read = %v, want %v", i+1, sender(cid, int64(i+1)), got, want)
		}
	}
	e.wantReadSeq("bob", cid, 4)
	_, err = e.s.MarkRead(e.ctx, cid, []int64{2}, "bob")
	e.must(err, "mark 2 read by bob")
	e.wantReadSeq("bob", cid, 4) // never lowered
	_, err = e.s.MarkRead(e.ctx, cid, []int64{6}, "bob")
	e.must(err, "mark 6 read by bob")
	e.wantReadSeq("bob", cid, 6)
	e.wantReadSeq("alice", cid, 0)
}

// testMarkReadGroup: /msg/mark_msgs_as_read sets is_read on the listed seqs
// not sent by the reader in a group too (internal/rpc/msg/as_read.go
// MarkMsgsAsRead calls MarkSingleChatMsgsAsRead for every conversation
// type; shared/openim-recorded: u3's mark of sg_g1 1..30).
func testMarkReadGroup(e *fixture) {
	const cid = "sg_readers"
	e.insert(cid, 1, 5) // m1 sent seqs 1 and 4
	_, err := e.s.MarkRead(e.ctx, cid, []int64{1, 2, 3, 4, 5}, "m1")
	e.must(err, "mark read in a group")
	for i, v := range e.slots(cid + ":0")[:5] {
		seq := int64(i + 1)
		if want := sender(cid, seq) != "m1"; e.slot(v).IsRead != want {
			e.errorf("group seq %d (sent by %s) read flag %v, want %v", seq, sender(cid, seq), e.slot(v).IsRead, want)
		}
	}
	e.wantReadSeq("m1", cid, 5)
}

// testMarkSlotReadFilter runs the filtered update directly: {$ne: reader}
// matches a slot whose msg is null, and not one the reader sent.
func testMarkSlotReadFilter(e *fixture) {
	const cid = "si_a_b"
	e.insert(cid, 1, 1) // sent by a
	id := cid + ":0"
	for _, c := range []struct {
		slot   int
		reader string
		want   bool
	}{{0, "a", false}, {0, "b", true}, {5, "a", true}} {
		matched, err := e.b.MarkSlotRead(e.ctx, id, c.slot, c.reader)
		e.must(err, "mark slot read")
		if matched != c.want {
			e.errorf("slot %d read by %s: matched %v, want %v", c.slot, c.reader, matched, c.want)
		}
		if got := e.slot(e.slots(id)[c.slot]).IsRead; got != c.want {
			e.errorf("slot %d read by %s: is_read %v, want %v", c.slot, c.reader, got, c.want)
		}
	}
	matched, err := e.b.MarkSlotRead(e.ctx, cid+":7", 0, "a")
	e.must(err, "mark read in a missing bucket")
	if matched || e.doc(cid+":7") != nil {
		e.errorf("mark read in a missing bucket matched or created it")
	}
}

// testMarkReadAcrossBuckets: one request marks several buckets, and marks
// what one request per bucket did (OpenIM's controller/msg.go
// MarkSingleChatMsgsAsRead: a BulkWrite per doc_id): is_read on every
// listed slot the reader did not send, a hole included, in each bucket;
// a missing bucket stays missing; ran counts every update, in order
// across the buckets.
func testMarkReadAcrossBuckets(e *fixture) {
	const cid = "si_alice_bob" // alice sends odd seqs, bob even ones
	e.insert(cid, 95, 105)     // buckets 0 (seqs 1-94 holes) and 1
	e.insert(cid, 301, 303)    // bucket 3; bucket 2 is missing
	e.s.FindBatch = 2          // requests of buckets 0-1 and 2-3
	_, err := e.s.MarkRead(e.ctx, cid, []int64{90, 95, 96, 97, 98, 99, 100, 101, 102, 103, 250, 301, 302}, "bob")
	e.must(err, "mark read across four buckets")
	read := map[int64]bool{90: true, 95: true, 97: true, 99: true, 101: true, 103: true, 301: true}
	for _, r := range []struct{ from, to int64 }{{89, 105}, {301, 303}} {
		for seq := r.from; seq <= r.to; seq++ {
			v := e.slots(bucket.DocIDForSeq(cid, seq))[bucket.SlotIndex(seq)]
			if got := e.slot(v).IsRead; got != read[seq] {
				e.errorf("seq %d (sent by %s) is_read = %v, want %v", seq, sender(cid, seq), got, read[seq])
			}
		}
	}
	if e.doc(cid+":2") != nil {
		e.errorf("mark read in a missing bucket created it")
	}
	e.wantReadSeq("bob", cid, 302)

	// The backend call itself: buckets out of order, a missing one between.
	runs := []store.BucketSlots{{DocID: cid + ":3", Slots: []int{2}}, {DocID: cid + ":2", Slots: []int{0, 1}}, {DocID: cid + ":1", Slots: []int{3, 4}}}
	ran, err := e.b.MarkSlotsRead(e.ctx, runs, "bob")
	e.must(err, "mark slots of three buckets read")
	if ran != 5 {
		e.errorf("ran %d updates of 5", ran)
	}
	for seq, want := range map[int64]bool{303: true, 104: false, 105: true} {
		if got := e.slot(e.slots(bucket.DocIDForSeq(cid, seq))[bucket.SlotIndex(seq)]).IsRead; got != want {
			e.errorf("seq %d (sent by %s) marked read by bob in one request: is_read = %v, want %v", seq, sender(cid, seq), got, want)
		}
	}
	if e.doc(cid+":2") != nil {
		e.errorf("mark slots read in a missing bucket created it")
	}
}

func (e *fixture) wantReadSeq(uid, cid string, want int64) {
	e.t.Helper()
	users, err := e.b.SeqUsers(e.ctx, uid, []string{cid})
	e.must(err, "seq users")
	var got int64
	for _, u := range users {
		if u.ConversationID == cid && u.UserID == uid {
			got = u.ReadSeq
		}
	}
	if got != want {
		e.errorf("read seq of %s in %s = %d, want %d", uid, cid, got, want)
	}
}
