package check

import (
	"context"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check/checktest"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestOpenIMWrittenStoreChecksClean: a database written only by OpenIM's
// own storage code (each document built by hand in the shape its mgo code
// writes, see checktest/openim.go for the file and function of each) reads
// clean: physically deleted slots, holes marked read by the $ne filter or
// deleted for someone, a bucket created by a revoke, seq and seq_user
// documents holding int32 zeros, group members with BSON join dates. The
// slot each case is about is drawn without a malformed marker, as a hole
// when it holds no message.
func TestOpenIMWrittenStoreChecksClean(t *testing.T) {
	for _, c := range checktest.OpenIMBuckets() {
		t.Run(c.Name, func(t *testing.T) {
			st, b := openStore(t, c.Doc)
			testkit.Insert(t, b, bucket.CollSeq, checktest.OpenIMSeq(cid, 100))
			testkit.Insert(t, b, bucket.CollSeqUser, checktest.OpenIMSeqUser(alice, cid, 30), checktest.OpenIMSeqUser(bob, cid, 12))
			testkit.Insert(t, b, bucket.CollGroupMember, checktest.OpenIMGroupMember("g1", alice, bucket.RoleOwner))
			r, out := runCheck(t, st, "")
			if r.Documents != 1 || r.Problems() != 0 {
				t.Errorf("check reports problems on OpenIM's own data:\n%s", out)
			}
			bk := bucket.DecodeBucket(raw(c.Doc))
			s := bk.Slots[c.Slot]
			if s.Problem != "" || s.IsHole() != c.Hole {
				t.Errorf("slot %d drawn with marker %q, hole %v; want no marker, hole %v", c.Slot, s.Problem, s.IsHole(), c.Hole)
			}
		})
	}
}

// TestOpenIMRecordsDecode: seq_user's int32 zeros read as 0 and the BSON
// date OpenIM stores in group_member.join_time (model.GroupMember.JoinTime
// is a time.Time) reads as that date, not as 0.
func TestOpenIMRecordsDecode(t *testing.T) {
	su := bucket.DecodeSeqUser(raw(checktest.OpenIMSeqUser(alice, cid, 30)))
	if su.ReadSeq != 30 || su.MinSeq != 0 || su.MaxSeq != 0 || su.UserID != alice {
		t.Errorf("seq_user = %+v, want read seq 30, min and max 0", su)
	}
	gm := bucket.DecodeGroupMember(raw(checktest.OpenIMGroupMember("g1", alice, bucket.RoleOwner)))
	if !gm.JoinTime.Equal(checktest.JoinTime) || gm.RoleLevel != bucket.RoleOwner {
		t.Errorf("group_member = %+v, want joined at %v", gm, checktest.JoinTime)
	}
	ms := bucket.DecodeGroupMember(raw(bson.D{{Key: "join_time", Value: int64(1714555800000)}}))
	if !ms.JoinTime.Equal(checktest.JoinTime) {
		t.Errorf("join_time in unix ms reads %v, want %v", ms.JoinTime, checktest.JoinTime)
	}
}

// TestNoSeqDocumentsAtAll: messages stored with no seq document is the
// worst case of the seq-record rule (OpenIM's Malloc, mgo/seq_conversation.go,
// would start again from 0 and hand out seq 1 again): each conversation is
// reported, not "0 problems".
func TestNoSeqDocumentsAtAll(t *testing.T) {
	st, b := openStore(t, cleanBucket(), bucketDoc("sg_team:0", cleanSlots()))
	r, out := runCheck(t, st, "")
	if r.ByKind[bucket.KindSeqRecord] != 2 || r.Problems() != 2 {
		t.Fatalf("want a seq-record problem for each conversation:\n%s", out)
	}
	if !strings.Contains(out, `no seq document for "sg_team"`) || strings.Contains(out, " 0 problems") {
		t.Errorf("report does not name the missing seq document:\n%s", out)
	}
	testkit.Insert(t, b, bucket.CollSeq, checktest.OpenIMSeq(cid, 100))
	if r, out := runCheck(t, st, cid); r.Problems() != 0 {
		t.Errorf("a conversation with its seq document is reported:\n%s", out)
	}
}

// TestMarkReadOverHolesChecksClean: marking a range read marks its holes
// read too, exactly as OpenIM's filter {"msgs.N.msg.send_id": {$ne: reader}}
// does (mgo/msg.go MarkSingleChatMsgsAsRead). chatlens keeps that filter, so
// a hole marked read is a state OpenIM's data has too, and check does not
// call it a problem.
func TestMarkReadOverHolesChecksClean(t *testing.T) {
	ctx := context.Background()
	st, b := openStore(t)
	const c = "si_u1_u2"
	msgs := func(first, last int64) []*bucket.MsgData {
		var out []*bucket.MsgData
		for seq := first; seq <= last; seq++ {
			out = append(out, &bucket.MsgData{SendID: "u2", RecvID: "u1", SessionType: 1, ContentType: 101,
				Content: `{"content":"hi"}`, Seq: seq, SendTime: 1700000000000 + seq, Status: 2, AtUserIDList: []string{}})
		}
		return out
	}
	for _, r := range [][2]int64{{1, 4}, {6, 10}} { // seq 5 is a hole
		if _, err := st.InsertMessages(ctx, c, r[0], msgs(r[0], r[1])); err != nil {
			t.Fatal(err)
		}
	}
	testkit.Insert(t, b, bucket.CollSeq, checktest.OpenIMSeq(c, 10))
	if _, err := st.MarkRead(ctx, c, []int64{4, 5, 6, 20}, "u1"); err != nil {
		t.Fatal(err)
	}
	bs, err := st.Buckets(ctx, c, []int64{0}, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, seq := range []int64{5, 20} {
		if s := bs[0].Slots[seq-1]; s.Slot == nil || !s.Slot.IsRead || !s.IsHole() || s.Problem != "" {
			t.Errorf("hole %d after mark read: %+v, want a hole marked read, no marker", seq, s)
		}
	}
	if r, out := runCheck(t, st, ""); r.Problems() != 0 {
		t.Errorf("holes marked read are reported:\n%s", out)
	}
}
