package storetest

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// rawBucket is bucket index of cid with the slots given by position, every
// other slot untouched, as OpenIM creates them.
func rawBucket(cid string, index int64, set map[int]any) bson.D {
	msgs := make(bson.A, bucket.BucketSize)
	for i := range msgs {
		msgs[i] = bucket.UntouchedSlot()
		if v, ok := set[i]; ok {
			msgs[i] = v
		}
	}
	return bson.D{{Key: "doc_id", Value: bucket.DocID(cid, index)}, {Key: "msgs", Value: msgs}}
}

// slotOf is a stored slot holding the message at seq of cid.
func slotOf(cid string, seq int64) bson.D {
	return bson.D{{Key: "msg", Value: newMsg(cid, seq)}, {Key: "revoke", Value: nil},
		{Key: "del_list", Value: bson.A{}}, {Key: "is_read", Value: false}}
}

// testListNewest: the list reads of each newest bucket only its last
// slots, and every row ends, and shows its newest message, where reading
// the bucket whole says: a bucket full to its last slot, one whose newest
// message was physically deleted, a hole marked read after the last
// message, a revoke-created bucket, a bucket whose msgs is not an array or
// is short, a window capped by conversation.max_seq, an all-untouched
// newest bucket.
func testListNewest(e *fixture) {
	const owner = "m1"
	want := map[string][2]int64{} // cid -> max seq, newest message's seq
	plain := func(cid string, n, maxSeq, newest int64) {
		e.insert(cid, 1, n)
		want[cid] = [2]int64{maxSeq, newest}
	}
	plain("sg_plain", 30, 30, 30)
	plain("sg_full", 100, 100, 100)
	plain("sg_two", 150, 150, 150)
	plain("sg_capped", 150, 120, 120)
	plain("sg_marked", 20, 20, 20)
	_, err := e.b.MarkSlotRead(e.ctx, "sg_marked:0", 24, "m2") // a hole after the last message
	e.must(err, "mark a hole read")
	plain("sg_revoked", 60, 100, 60) // an unsent newest bucket: the messages end before it
	e.must(e.b.InsertBucket(e.ctx, revokeOnly("sg_revoked", 1, 10)), "a bucket created by a revoke")
	e.must(e.b.RaiseMaxSeq(e.ctx, "sg_revoked", 200), "reserve past it")
	// seq 40 physically deleted: still the newest seq sent, 39 the newest message.
	testkit.Insert(e.t, e.b, bucket.CollMsg, rawBucket("sg_erased", 0, map[int]any{
		0: slotOf("sg_erased", 1), 38: slotOf("sg_erased", 39), 39: bson.D{{Key: "msg", Value: nil}}}))
	want["sg_erased"] = [2]int64{40, 39}
	plain("sg_untouched", 60, 100, 60)
	testkit.Insert(e.t, e.b, bucket.CollMsg, rawBucket("sg_untouched", 1, nil))
	e.must(e.b.RaiseMaxSeq(e.ctx, "sg_untouched", 150), "reserve into the untouched bucket")
	testkit.Insert(e.t, e.b, bucket.CollMsg,
		bson.D{{Key: "doc_id", Value: "sg_object:0"}, {Key: "msgs", Value: bson.D{{Key: "0", Value: slotOf("sg_object", 1)}}}},
		bson.D{{Key: "doc_id", Value: "sg_short:0"}, {Key: "msgs", Value: bson.A{slotOf("sg_short", 1), slotOf("sg_short", 2)}}})
	want["sg_object"] = [2]int64{100, 0} // unreadable: shown to its end, no message
	want["sg_short"] = [2]int64{2, 2}
	for _, cid := range []string{"sg_erased", "sg_object", "sg_short"} {
		e.must(e.b.RaiseMaxSeq(e.ctx, cid, 100), "max seq of "+cid)
	}
	var convs []any
	for cid := range want {
		c := bson.D{{Key: "owner_user_id", Value: owner}, {Key: "conversation_id", Value: cid}}
		if cid == "sg_capped" {
			c = append(c, bson.E{Key: "max_seq", Value: int64(120)})
		}
		convs = append(convs, c)
	}
	testkit.Insert(e.t, e.b, bucket.CollConversation, convs...)

	list, err := e.s.ConversationsOf(e.ctx, owner)
	e.must(err, "list")
	cids := make([]string, len(list))
	for i, row := range list {
		cids[i] = row.ConversationID
	}
	whole, err := e.s.Windows(e.ctx, owner, cids, nil)
	e.must(err, "windows read whole")
	for _, row := range list {
		cid := row.ConversationID
		got := [2]int64{row.Window.MaxSeq, seqOf(row.Window.Newest)}
		if got != want[cid] {
			e.errorf("%s: the list says max seq %d, newest message %d; want %v", cid, got[0], got[1], want[cid])
		}
		w := whole[cid]
		if read := [2]int64{w.MaxSeq, seqOf(w.Newest)}; read != got {
			e.errorf("%s: read whole, max seq %d and newest %d; the list %v", cid, read[0], read[1], got)
		}
		if n := row.Window.Newest; n != nil && n.Slot != nil && n.Slot.Msg != nil && n.Slot.Msg.Content != fmt.Sprintf(`{"content":"message %d"}`, n.Seq) {
			e.errorf("%s: newest message %d says %s", cid, n.Seq, n.Slot.Msg.Content)
		}
	}
}

// revokeOnly is bucket index of cid with only slot's revoke set, as a
// revoke of a seq not stored yet creates it.
func revokeOnly(cid string, index int64, slot int) *bucket.Doc {
	d := bucket.NewDoc(bucket.DocID(cid, index))
	d.Msgs[slot].Revoke = &bucket.Revoke{Role: 100, UserID: "m1", Nickname: "m1", Time: 1700000000000}
	return d
}

func seqOf(s *bucket.StoredSlot) int64 {
	if s == nil {
		return 0
	}
	return s.Seq
}
