package storetest

import (
	"slices"

	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check/checktest"
	"github.com/chatlens/chatlens/store/testkit"
)

// testPhysicallyDeletedSlots: a slot OpenIM's physical delete left as
// {msg: null} alone (mgo/msg.go DeleteMsgsInOneDocByIndex) reads as a plain
// hole, with no marker; delete-for-me and mark-read on it add the field
// they set, as OpenIM's $addToSet and $ne-filtered $set do, and it stays a
// hole that CheckSlot finds sound.
func testPhysicallyDeletedSlots(e *fixture) {
	cid := checktest.Cid
	testkit.Insert(e.t, e.b, bucket.CollMsg, checktest.OpenIMBuckets()[0].Doc) // seq 7 physically deleted
	testkit.Insert(e.t, e.b, bucket.CollSeq, checktest.OpenIMSeq(cid, 100))
	st := e.buckets(cid, 0)[0].Slots[6]
	if !st.IsHole() || st.Problem != "" {
		e.errorf("physically deleted seq 7 = %+v, want a hole without a marker", st)
	}
	_, err := e.s.DeleteForMe(e.ctx, cid, []int64{7}, checktest.Bob)
	e.must(err, "delete seq 7 for bob")
	_, err = e.s.MarkRead(e.ctx, cid, []int64{7}, checktest.Alice)
	e.must(err, "mark seq 7 read")
	raw := e.slots(cid + ":0")[6]
	if ps := bucket.CheckSlot(raw, 7); len(ps) != 0 {
		e.errorf("seq 7 after delete and read: %v, want no problem", ps)
	}
	got := e.slot(raw)
	if got.Msg != nil || !got.IsRead || !slices.Equal(got.DelList, []string{checktest.Bob}) {
		e.errorf("seq 7 = %+v, want msg null, read, deleted for bob", got)
	}
	if st := e.buckets(cid, 0)[0].Slots[6]; !st.IsHole() || st.Problem != "" {
		e.errorf("seq 7 after the writes = %+v, want a hole without a marker", st)
	}
}

// testJoinTimeDates: group_member.join_time, a BSON date in OpenIM's
// model.GroupMember, reads as that date.
func testJoinTimeDates(e *fixture) {
	testkit.Insert(e.t, e.b, bucket.CollGroupMember, checktest.OpenIMGroupMember("g1", "u1", bucket.RoleAdmin))
	ms, err := e.b.GroupMembers(e.ctx, "g1")
	e.must(err, "group members")
	if len(ms) != 1 || !ms[0].JoinTime.Equal(checktest.JoinTime) || ms[0].RoleLevel != bucket.RoleAdmin {
		e.errorf("group members = %+v, want u1, admin, joined at %v", ms, checktest.JoinTime)
	}
}
