package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// testReservedMaxSeq: seq.max_seq is a reserved upper bound, often in a
// bucket nobody wrote yet. The window ends at the last message stored at or
// below it, never at the bound: no phantom holes, no phantom unread.
func testReservedMaxSeq(e *fixture) {
	e.insert("sg_next", 1, 95)
	e.must(e.b.RaiseMaxSeq(e.ctx, "sg_next", 195), "reserve into bucket 1")
	e.insert("sg_far", 1, 150)
	e.must(e.b.RaiseMaxSeq(e.ctx, "sg_far", 420), "reserve three buckets ahead")
	e.must(e.b.RaiseMaxSeq(e.ctx, "sg_none", 60), "reserve without any message")
	e.insert("sg_full", 1, 100) // the common case: max_seq's bucket is stored
	e.must(e.b.RaiseMaxSeq(e.ctx, "sg_full", 100), "max seq in a stored bucket")

	cids := []string{"sg_next", "sg_far", "sg_none", "sg_full"}
	ws, err := e.s.Windows(e.ctx, "m1", cids, nil)
	e.must(err, "windows")
	for cid, want := range map[string]int64{"sg_next": 95, "sg_far": 150, "sg_none": 0, "sg_full": 100} {
		w := ws[cid]
		if w.MaxSeq != want || w.Unread() != want {
			e.errorf("%s: max seq %d unread %d, want %d and %d (the last message, not the reserved bound)",
				cid, w.MaxSeq, w.Unread(), want, want)
		}
		if want > 0 && (w.Last == nil || w.Last.Index != bucket.BucketIndex(want)) {
			e.errorf("%s: the window's newest bucket is %v, want the one holding seq %d", cid, w.Last, want)
		}
	}
	// The common case (m1 owns conversation documents) still costs one find
	// for the newest buckets, beside the seq, seq_user and conversation reads.
	testkit.Insert(e.t, e.b, bucket.CollConversation,
		bson.D{{Key: "owner_user_id", Value: "m1"}, {Key: "conversation_id", Value: "sg_full"}})
	before := e.s.Stats().RoundTrips
	_, err = e.s.Windows(e.ctx, "m1", []string{"sg_full"}, nil)
	e.must(err, "window of sg_full")
	if got := e.s.Stats().RoundTrips - before; got != 4 {
		e.errorf("window with max seq in a stored bucket took %d round trips, want 4", got)
	}
}

// testSeqUpsertShape: a $max upsert creates the document the MongoDB
// backend's $setOnInsert writes: min_seq (and max_seq) 0, every field there.
func testSeqUpsertShape(e *fixture) {
	e.must(e.b.RaiseMaxSeq(e.ctx, "si_u1_u2", 7), "raise max seq")
	e.must(e.b.RaiseReadSeq(e.ctx, "u1", "si_u1_u2", 3), "raise read seq")
	e.must(e.b.RaiseMaxSeq(e.ctx, "si_u1_u2", 9), "raise max seq again")
	for _, c := range []struct {
		coll   string
		fields []string
		values map[string]int64
	}{
		{bucket.CollSeq, []string{"_id", "conversation_id", "max_seq", "min_seq"}, map[string]int64{"max_seq": 9, "min_seq": 0}},
		{bucket.CollSeqUser, []string{"_id", "conversation_id", "max_seq", "min_seq", "read_seq", "user_id"},
			map[string]int64{"max_seq": 0, "min_seq": 0, "read_seq": 3}},
	} {
		docs := e.scan(c.coll, "")
		if len(docs) != 1 {
			e.fatalf("%s holds %d documents after the upserts, want 1", c.coll, len(docs))
		}
		elems, err := docs[0].Elements()
		e.must(err, "elements of "+c.coll)
		var keys []string
		for _, el := range elems {
			keys = append(keys, el.Key())
		}
		slices.Sort(keys)
		if !slices.Equal(keys, c.fields) {
			e.errorf("upserted %s document has fields %q, want %q: %s", c.coll, keys, c.fields, docs[0])
		}
		for k, want := range c.values {
			v := docs[0].Lookup(k)
			if n, ok := v.AsInt64OK(); !ok || n != want {
				e.errorf("upserted %s.%s = %s, want %d", c.coll, k, v, want)
			}
		}
	}
}

// testLenientRecords: one document with a mistyped field (min_seq "0", a
// pinned flag written as 1, numbers as doubles) must not hide the list.
func testLenientRecords(e *fixture) {
	e.insert("si_u1_u2", 1, 10)
	e.insert("sg_g1", 1, 5)
	testkit.Insert(e.t, e.b, bucket.CollConversation,
		bson.D{{Key: "owner_user_id", Value: "u1"}, {Key: "conversation_id", Value: "si_u1_u2"},
			{Key: "conversation_type", Value: 1.0}, {Key: "min_seq", Value: "0"}, {Key: "is_pinned", Value: int32(1)}},
		bson.D{{Key: "owner_user_id", Value: "u1"}, {Key: "conversation_id", Value: "sg_g1"},
			{Key: "conversation_type", Value: int32(3)}, {Key: "max_seq", Value: bson.A{}}})
	testkit.Insert(e.t, e.b, bucket.CollSeqUser, bson.D{{Key: "user_id", Value: "u1"}, {Key: "conversation_id", Value: "si_u1_u2"},
		{Key: "min_seq", Value: nil}, {Key: "read_seq", Value: 4.0}})
	testkit.Insert(e.t, e.b, bucket.CollUser, bson.D{{Key: "user_id", Value: "u2"}, {Key: "nickname", Value: int32(42)}})
	testkit.Insert(e.t, e.b, bucket.CollGroupMember, bson.D{{Key: "group_id", Value: "g1"}, {Key: "user_id", Value: "u1"},
		{Key: "role_level", Value: "100"}, {Key: "join_time", Value: "yesterday"}})
	list, err := e.s.ConversationsOf(e.ctx, "u1")
	e.must(err, "conversations of u1 with mistyped fields")
	want := []string{"si_u1_u2 max 10 read 4 unread 6", "sg_g1 max 5 read 0 unread 5"} // pinned first
	if got := summarize(list); !slices.Equal(got, want) {
		e.errorf("conversations of u1 = %q, want %q", got, want)
	}
	names, err := e.s.UserNames(e.ctx, []string{"u2"})
	e.must(err, "user names")
	if names["u2"] != "42" {
		e.errorf("nickname stored as a number reads %q, want \"42\"", names["u2"])
	}
	members, err := e.s.MembersFor(e.ctx, "sg_g1", "u1")
	e.must(err, "members")
	if len(members) != 1 || members[0].RoleLevel != bucket.RoleOwner {
		e.errorf("members = %+v, want u1 as owner (role_level \"100\")", members)
	}
}

// testCheckTargets: the checks a scripted write passes before it writes,
// as the server would answer: no revoke of a hole or outside the actor's
// window, no second revoke, no read past max seq; a delete or a read
// before the window and a delete of a hole pass, as the server writes them
// (delete.go DeleteMsgs, as_read.go MarkMsgsAsRead); a delete past the
// last message is chatlens's own refusal.
func testCheckTargets(e *fixture) {
	const cid = "si_u1_u2"
	e.insert(cid, 1, 4)
	e.insert(cid, 6, 10) // seq 5 is a hole
	e.must(e.b.RaiseMaxSeq(e.ctx, cid, 60), "reserve ahead")
	rev := bucket.Revoke{Role: 0, UserID: "u2", Nickname: "Dos", Time: 1700000000000}
	_, err := e.s.Revoke(e.ctx, cid, []int64{3}, rev)
	e.must(err, "revoke seq 3")
	// u1 cleared their history before seq 2 (seq_user.min_seq: the pull
	// window's start, controller/msg.go GetMsgBySeqsRange).
	testkit.Insert(e.t, e.b, bucket.CollSeqUser, bson.D{{Key: "user_id", Value: "u1"}, {Key: "conversation_id", Value: cid},
		{Key: "min_seq", Value: int64(2)}})
	for _, c := range []struct {
		action, uid string
		seqs        []int64
		refused     []string // "seqs: reason part", in order; none: allowed
	}{
		{store.ActionRevoke, "u1", []int64{7, 8}, nil},
		{store.ActionRevoke, "u1", []int64{3, 5, 7, 12}, []string{"3: already revoked by u2", "5: no message", "12: beyond the last message (max seq 10)"}},
		{store.ActionRevoke, "u1", []int64{1}, []string{"1: msg not found: before u1's first visible seq 2"}}, // revoke.go RevokeMsg: GetMsgBySeqs returns nothing below the window
		{store.ActionDelete, "u1", []int64{3, 4}, nil},
		{store.ActionDelete, "u1", []int64{1, 5, 11}, []string{"11: beyond"}},
		{store.ActionDelete, "u2", []int64{1}, nil}, // u2's window starts at 1
		{store.ActionRead, "u1", []int64{2, 5, 10}, nil},
		{store.ActionRead, "u1", []int64{1, 5}, nil},
		{store.ActionRead, "u1", []int64{9, 5000}, []string{"5000: beyond the last message (max seq 10)"}},
	} {
		where := fmt.Sprintf("%s %v by %s", c.action, c.seqs, c.uid)
		err := e.s.CheckTargets(e.ctx, cid, c.uid, c.seqs, c.action)
		var te *store.TargetError
		switch {
		case c.refused == nil && err != nil:
			e.errorf("%s: refused: %v", where, err)
		case c.refused == nil:
		case !errors.As(err, &te):
			e.errorf("%s: %v, want a TargetError", where, err)
		default:
			var got []string
			for _, r := range te.Refused {
				got = append(got, store.FormatSeqs(r.Seqs)+": "+r.Reason)
			}
			if len(got) != len(c.refused) {
				e.errorf("%s: refused %q, want %q", where, got, c.refused)
				continue
			}
			for i := range got {
				if !strings.HasPrefix(got[i], c.refused[i]) {
					e.errorf("%s: refusal %d is %q, want %q...", where, i, got[i], c.refused[i])
				}
			}
			if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), cid) {
				e.errorf("%s: error %q is not one line naming the conversation", where, err)
			}
		}
	}
	if err := e.s.CheckTargets(e.ctx, cid, "u1", []int64{1}, "frobnicate"); err == nil {
		e.errorf("an unknown action passed the check")
	}
}
