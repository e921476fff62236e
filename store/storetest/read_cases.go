package storetest

import (
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

func testReadBucketEdges(e *fixture) {
	const cid = "sg_edges"
	e.insert(cid, 1, 300)
	bs := e.buckets(cid, 0, 1, 2)
	var seqs []int64
	for _, b := range bs {
		for i := range b.Slots {
			st := b.Slots[i]
			seqs = append(seqs, st.Seq)
			e.wantMessage(cid, st.Seq, st.Slot)
			if st.Problem != "" {
				e.errorf("seq %d: %s", st.Seq, st.Problem)
			}
		}
	}
	for i, seq := range seqs {
		if seq != int64(i+1) {
			e.fatalf("position %d read seq %d: buckets 0,1,2 must give seqs 1..300 in order", i, seq)
		}
	}
	if len(seqs) != 300 {
		e.errorf("read %d seqs, want 300", len(seqs))
	}
}

func testReadHoles(e *fixture) {
	const cid = "sg_holes"
	e.insert(cid, 1, 5)
	zero := newMsg(cid, 6)
	zero.SendTime = 0
	_, err := e.s.InsertMessages(e.ctx, cid, 6, []*bucket.MsgData{zero})
	e.must(err, "insert a message with send_time 0")
	e.insert(cid, 8, 10) // seq 7 stays null
	bs := e.buckets(cid, 0, 1)
	for seq := int64(1); seq <= 200; seq++ {
		st := bs[bucket.BucketIndex(seq)].Slots[bucket.SlotIndex(seq)]
		wantHole := seq == 6 || seq == 7 || seq > 10
		if st.IsHole() != wantHole {
			e.errorf("seq %d: hole %v, want %v", seq, st.IsHole(), wantHole)
		}
		if st.Seq != seq {
			e.errorf("position of seq %d reads as seq %d", seq, st.Seq)
		}
	}
}

func testWindows(e *fixture) {
	const cid = "si_u1_u2"
	e.insert(cid, 1, 150)
	// max_seq is a reserved upper bound: the window ends at the last filled slot.
	e.must(e.b.RaiseMaxSeq(e.ctx, cid, 180), "raise max seq")
	e.must(e.b.RaiseMaxSeq(e.ctx, cid, 100), "lower max seq")
	recs, err := e.b.SeqRecords(e.ctx, []string{cid, "si_none_x"})
	e.must(err, "seq records")
	if len(recs) != 1 || recs[0].MaxSeq != 180 {
		e.errorf("seq records = %+v, want one with max_seq 180 (raised, never lowered)", recs)
	}
	testkit.Insert(e.t, e.b, bucket.CollConversation,
		bson.D{{Key: "owner_user_id", Value: "u1"}, {Key: "conversation_id", Value: cid}, {Key: "min_seq", Value: int64(20)}},
		bson.D{{Key: "owner_user_id", Value: "u2"}, {Key: "conversation_id", Value: cid},
			{Key: "min_seq", Value: int64(0)}, {Key: "max_seq", Value: int64(120)}})
	testkit.Insert(e.t, e.b, bucket.CollSeqUser,
		bson.D{{Key: "user_id", Value: "u1"}, {Key: "conversation_id", Value: cid}, {Key: "min_seq", Value: int64(30)},
			{Key: "max_seq", Value: int64(0)}, {Key: "read_seq", Value: int64(100)}})
	for _, c := range []struct {
		uid                   string
		min, max, read, unrea int64
	}{
		{"u1", 30, 150, 100, 50}, // seq_user.min_seq beats conversation.min_seq
		{"u2", 1, 120, 0, 120},   // conversation.max_seq caps the window
		{"u3", 1, 150, 0, 150},   // no documents of u3 at all
	} {
		ws, err := e.s.Windows(e.ctx, c.uid, []string{cid}, nil)
		e.must(err, "windows of "+c.uid)
		w := ws[cid]
		if w == nil || w.MinSeq != c.min || w.MaxSeq != c.max || w.ReadSeq != c.read || w.Unread() != c.unrea {
			e.errorf("window of %s = %+v, want min %d max %d read %d unread %d", c.uid, w, c.min, c.max, c.read, c.unrea)
		}
	}
	// A conversation without a seq document ends at its newest filled slot.
	b0, b1 := bucket.NewDoc("sg_noseq:0"), bucket.NewDoc("sg_noseq:1")
	b0.Msgs[0].Msg, b1.Msgs[49].Msg = newMsg("sg_noseq", 1), newMsg("sg_noseq", 150)
	b0.Msgs[0].Msg.Seq, b1.Msgs[49].Msg.Seq = 1, 150
	testkit.Insert(e.t, e.b, bucket.CollMsg, b1, b0)
	ws, err := e.s.Windows(e.ctx, "m0", []string{"sg_noseq", "sg_empty"}, nil)
	e.must(err, "windows without seq documents")
	if ws["sg_noseq"].MaxSeq != 150 || ws["sg_empty"].MaxSeq != 0 {
		e.errorf("max seqs without seq documents = %d and %d, want 150 and 0", ws["sg_noseq"].MaxSeq, ws["sg_empty"].MaxSeq)
	}
}

func testBucketIDs(e *fixture) {
	e.insert("sg_g1", 1, 250)
	e.insert("sg_g10", 1, 1)
	e.insert("sg_g", 1, 1)
	ids, err := e.b.BucketIDs(e.ctx, "sg_g1")
	e.must(err, "bucket ids")
	slices.Sort(ids)
	if want := []string{"sg_g1:0", "sg_g1:1", "sg_g1:2"}; !slices.Equal(ids, want) {
		e.errorf("BucketIDs(sg_g1) = %q, want %q", ids, want)
	}
	if ids, err := e.b.BucketIDs(e.ctx, "sg_none"); err != nil || len(ids) != 0 {
		e.errorf("BucketIDs of an unknown conversation = %q, %v", ids, err)
	}
}

func testConversationsFromCollection(e *fixture) {
	e.insert("si_u1_u2", 1, 10)
	e.insert("sg_g1", 1, 120)
	e.insert("si_u1_u3", 1, 3)
	testkit.Insert(e.t, e.b, bucket.CollConversation,
		bson.D{{Key: "owner_user_id", Value: "u1"}, {Key: "conversation_id", Value: "si_u1_u2"},
			{Key: "conversation_type", Value: int32(1)}, {Key: "user_id", Value: "u2"}},
		bson.D{{Key: "owner_user_id", Value: "u1"}, {Key: "conversation_id", Value: "sg_g1"},
			{Key: "conversation_type", Value: int32(3)}, {Key: "group_id", Value: "g1"}, {Key: "is_pinned", Value: true}},
		bson.D{{Key: "owner_user_id", Value: "u2"}, {Key: "conversation_id", Value: "si_u1_u2"},
			{Key: "conversation_type", Value: int32(1)}, {Key: "user_id", Value: "u1"}},
		bson.D{{Key: "owner_user_id", Value: "u10"}, {Key: "conversation_id", Value: "si_u1_u10"}})
	e.must(e.b.RaiseReadSeq(e.ctx, "u1", "sg_g1", 100), "raise read seq")
	list, err := e.s.ConversationsOf(e.ctx, "u1")
	e.must(err, "conversations of u1")
	got := summarize(list)
	// Pinned first; si_u1_u3 has messages but is not in u1's list.
	want := []string{"sg_g1 max 120 read 100 unread 20", "si_u1_u2 max 10 read 0 unread 10"}
	if !slices.Equal(got, want) {
		e.errorf("conversations of u1 = %q, want %q", got, want)
	}
	for _, c := range list {
		if c.FromMessages {
			e.errorf("%s marked as found from messages", c.ConversationID)
		}
	}
	owners, err := e.b.ConversationsByID(e.ctx, "si_u1_u2")
	e.must(err, "conversations by id")
	var names []string
	for _, c := range owners {
		names = append(names, c.OwnerUserID)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"u1", "u2"}) {
		e.errorf("owners of si_u1_u2 = %q, want [u1 u2]", names)
	}
}

// testConversationsFromDocIDs lists a bare msg collection: every
// conversation once, in order, however its doc_ids sort (sg_g10:0 sorts
// before sg_g1:0 as a string).
func testConversationsFromDocIDs(e *fixture) {
	e.insert("sg_g1", 1, 150)
	e.insert("sg_g10", 1, 2)
	e.insert("si_a_b", 1, 201)
	e.insert("si_a_c", 99, 101)
	e.insert("si_b_c", 1, 1)
	e.insert("sg_g2", 5, 5)
	all, err := e.s.AllConversationIDs(e.ctx)
	e.must(err, "all conversation IDs")
	slices.Sort(all)
	if want := []string{"sg_g1", "sg_g10", "sg_g2", "si_a_b", "si_a_c", "si_b_c"}; !slices.Equal(all, want) {
		e.errorf("conversations in msg = %q, want %q (each once)", all, want)
	}
	list, err := e.s.ConversationsOf(e.ctx, "a")
	e.must(err, "conversations of a")
	// Newest message first (message seq s is sent at s seconds).
	want := []string{"si_a_b max 201 read 0 unread 201", "sg_g1 max 150 read 0 unread 150",
		"si_a_c max 101 read 0 unread 101", "sg_g2 max 5 read 0 unread 5", "sg_g10 max 2 read 0 unread 2"}
	if got := summarize(list); !slices.Equal(got, want) {
		e.errorf("conversations of a = %q, want %q", got, want)
	}
	for _, c := range list {
		if !c.FromMessages {
			e.errorf("%s not marked as found from messages", c.ConversationID)
		}
	}
}

func summarize(list []store.ConversationSummary) []string {
	var out []string
	for _, c := range list {
		out = append(out, fmt.Sprintf("%s max %d read %d unread %d", c.ConversationID, c.Window.MaxSeq, c.Window.ReadSeq, c.Unread()))
	}
	return out
}

// testSeqUsersOfMembers reads the read seqs of several users of one
// conversation at once (who has read a message), and no other
// conversation's.
func testSeqUsersOfMembers(e *fixture) {
	e.must(e.b.RaiseReadSeq(e.ctx, "u1", "sg_g1", 30), "raise read seq")
	e.must(e.b.RaiseReadSeq(e.ctx, "u2", "sg_g1", 7), "raise read seq")
	e.must(e.b.RaiseReadSeq(e.ctx, "u2", "sg_g2", 90), "raise read seq")
	docs, err := e.b.SeqUsersOf(e.ctx, "sg_g1", []string{"u1", "u2", "u3"})
	e.must(err, "seq users of sg_g1")
	var got []string
	for _, d := range docs {
		got = append(got, fmt.Sprintf("%s/%s %d", d.UserID, d.ConversationID, d.ReadSeq))
	}
	slices.Sort(got)
	if want := []string{"u1/sg_g1 30", "u2/sg_g1 7"}; !slices.Equal(got, want) {
		e.errorf("SeqUsersOf(sg_g1, u1 u2 u3) = %q, want %q", got, want)
	}
}
