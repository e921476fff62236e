package storetest

import (
	"bytes"
	"slices"
	"sort"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// scan returns every stored document of coll under prefix, sorted by bytes.
func (e *fixture) scan(coll, prefix string) []bson.Raw {
	e.t.Helper()
	var out []bson.Raw
	e.must(e.b.ScanRaw(e.ctx, coll, prefix, func(d bson.Raw) error {
		out = append(out, d)
		return nil
	}), "scan "+coll)
	sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i], out[j]) < 0 })
	return out
}

// testRawRoundTrip imports documents of every kind of BSON value and reads
// back exactly the same bytes (export is byte for byte what import took).
func testRawRoundTrip(e *fixture) {
	msg := bucket.NewDoc("si_a_b:0")
	msg.Msgs[0].Msg = newMsg("si_a_b", 1)
	msg.Msgs[0].Msg.Seq = 1
	docs := map[string][]bson.Raw{
		bucket.CollMsg: {
			testkit.Raw(e.t, bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "doc_id", Value: msg.DocID}, {Key: "msgs", Value: msg.Msgs}}),
			testkit.Raw(e.t, bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "doc_id", Value: "sg_g1:3"}, {Key: "msgs", Value: bucket.NewDoc("").Msgs}}),
		},
		bucket.CollUser: {testkit.Raw(e.t, bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "user_id", Value: "a"},
			{Key: "nickname", Value: "Ada 😀 阿达"}, {Key: "create_time", Value: bson.DateTime(1700000000000)},
			{Key: "level", Value: int32(1)}, {Key: "score", Value: 2.5}, {Key: "ex", Value: nil},
			{Key: "tags", Value: bson.A{"x", int64(2), bson.D{{Key: "k", Value: true}}}}})},
		"black": {testkit.Raw(e.t, bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "owner_user_id", Value: "a"}})},
	}
	for coll, raws := range docs {
		_, err := e.b.InsertRaw(e.ctx, coll, raws, store.RawUpsert)
		e.must(err, "insert raw "+coll)
		want := slices.Clone(raws)
		sort.Slice(want, func(i, j int) bool { return bytes.Compare(want[i], want[j]) < 0 })
		got := e.scan(coll, "")
		if len(got) != len(want) {
			e.errorf("%s: scanned %d documents, imported %d", coll, len(got), len(want))
			continue
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				e.errorf("%s: stored document differs from the imported one:\n got %s\nwant %s", coll, got[i], want[i])
			}
		}
	}
	if got := e.scan(bucket.CollMsg, "si_a_b:"); len(got) != 1 || !bytes.Equal(got[0], docs[bucket.CollMsg][0]) {
		e.errorf("scan with prefix si_a_b: found %d documents, want the one of si_a_b", len(got))
	}
	// A document without _id gets one, as MongoDB gives it.
	testkit.Insert(e.t, e.b, bucket.CollGroup, bson.D{{Key: "group_id", Value: "g1"}, {Key: "group_name", Value: "Team"}})
	got := e.scan(bucket.CollGroup, "")
	if len(got) != 1 || got[0].Lookup("_id").Type != bson.TypeObjectID || got[0].Lookup("group_name").StringValue() != "Team" {
		e.errorf("group imported without _id reads back as %v", got)
	}
}

func testRawReplace(e *fixture) {
	testkit.Insert(e.t, e.b, bucket.CollUser, bson.D{{Key: "user_id", Value: "u1"}, {Key: "nickname", Value: "First"}})
	testkit.Insert(e.t, e.b, bucket.CollUser, bson.D{{Key: "user_id", Value: "u1"}, {Key: "nickname", Value: "Second"}})
	users, err := e.b.Users(e.ctx, []string{"u1"})
	e.must(err, "users")
	if len(users) != 1 || users[0].Nickname != "Second" || len(e.scan(bucket.CollUser, "")) != 1 {
		e.errorf("after importing u1 twice: %+v, want one user named Second", users)
	}
	testkit.Insert(e.t, e.b, bucket.CollSeqUser,
		bson.D{{Key: "user_id", Value: "u1"}, {Key: "conversation_id", Value: "c1"}, {Key: "read_seq", Value: int64(3)}},
		bson.D{{Key: "user_id", Value: "u1"}, {Key: "conversation_id", Value: "c2"}, {Key: "read_seq", Value: int64(4)}},
		bson.D{{Key: "user_id", Value: "u1"}, {Key: "conversation_id", Value: "c1"}, {Key: "read_seq", Value: int64(5)}})
	if n := len(e.scan(bucket.CollSeqUser, "")); n != 2 {
		e.errorf("seq_user unique on (user_id, conversation_id): %d documents stored, want 2", n)
	}
	e.wantReadSeq("u1", "c1", 5)

	first := bucket.NewDoc("sg_g1:0")
	first.Msgs[0].Msg = newMsg("sg_g1", 1)
	testkit.Insert(e.t, e.b, bucket.CollMsg, first)
	testkit.Insert(e.t, e.b, bucket.CollMsg, bucket.NewDoc("sg_g1:0"))
	if got := e.scan(bucket.CollMsg, ""); len(got) != 1 {
		e.errorf("importing sg_g1:0 twice stored %d documents", len(got))
	} else if s := e.slot(e.slots("sg_g1:0")[0]); s.Msg != nil {
		e.errorf("the second import of sg_g1:0 did not replace the first")
	}
}

// testRawInsertMode: under RawInsert (mongoimport's default) a document
// whose unique key is stored, or taken earlier in the same call, is refused
// and the stored one stays; RawUpsert replaces it. The counts say which.
func testRawInsertMode(e *fixture) {
	user := func(id, nick string) bson.Raw {
		return testkit.Raw(e.t, bson.D{{Key: "user_id", Value: id}, {Key: "nickname", Value: nick}})
	}
	raw := func(coll string, mode store.RawMode, docs ...bson.Raw) store.RawResult {
		e.t.Helper()
		res, err := e.b.InsertRaw(e.ctx, coll, docs, mode)
		e.must(err, "insert raw "+coll)
		return res
	}
	if res := raw(bucket.CollUser, store.RawInsert, user("u1", "First")); res.Inserted != 1 || len(res.Refused) != 0 {
		e.errorf("first insert of u1: %+v, want 1 inserted", res)
	}
	res := raw(bucket.CollUser, store.RawInsert, user("u1", "Second"), user("u2", "Two"), user("u2", "Again"))
	if res.Inserted != 1 || res.Replaced != 0 || !slices.Equal(res.Refused, []int{0, 2}) {
		e.errorf("insert of u1 (stored), u2, u2 again: %+v, want 1 inserted and documents 0 and 2 refused", res)
	}
	users, err := e.b.Users(e.ctx, []string{"u1", "u2"})
	e.must(err, "users")
	names := map[string]string{}
	for _, u := range users {
		names[u.UserID] = u.Nickname
	}
	if names["u1"] != "First" || names["u2"] != "Two" || len(e.scan(bucket.CollUser, "")) != 2 {
		e.errorf("after refused duplicates: %v, want u1 First and u2 Two, one each", names)
	}

	// A revoked message stays revoked when an older export of its bucket
	// is imported again.
	e.insert("sg_g1", 1, 1)
	_, err = e.s.Revoke(e.ctx, "sg_g1", []int64{1}, bucket.Revoke{Role: bucket.RoleMember, UserID: sender("sg_g1", 1), Time: 1})
	e.must(err, "revoke")
	old := bucket.NewDoc("sg_g1:0")
	old.Msgs[0].Msg = newMsg("sg_g1", 1)
	if res := raw(bucket.CollMsg, store.RawInsert, testkit.Raw(e.t, old)); len(res.Refused) != 1 || res.Inserted != 0 {
		e.errorf("insert of a stored bucket: %+v, want it refused", res)
	}
	if s := e.slot(e.slots("sg_g1:0")[0]); s.Revoke == nil {
		e.errorf("an insert-mode import undid a revoke")
	}
	if res := raw(bucket.CollSeqUser, store.RawInsert,
		testkit.Raw(e.t, bson.D{{Key: "user_id", Value: "u1"}, {Key: "conversation_id", Value: "c1"}}),
		testkit.Raw(e.t, bson.D{{Key: "user_id", Value: "u1"}, {Key: "conversation_id", Value: "c2"}}),
		testkit.Raw(e.t, bson.D{{Key: "user_id", Value: "u2"}, {Key: "conversation_id", Value: "c1"}}),
		testkit.Raw(e.t, bson.D{{Key: "user_id", Value: "u1"}, {Key: "conversation_id", Value: "c1"}})); res.Inserted != 3 || !slices.Equal(res.Refused, []int{3}) {
		e.errorf("seq_user keyed on (user_id, conversation_id): %+v, want 3 inserted, the 4th refused", res)
	}

	res = raw(bucket.CollUser, store.RawUpsert, user("u1", "Third"), user("u3", "Three"))
	if res.Inserted != 1 || res.Replaced != 1 || len(res.Refused) != 0 {
		e.errorf("upsert of u1 (stored) and u3: %+v, want 1 replaced, 1 inserted", res)
	}
	if users, _ := e.b.Users(e.ctx, []string{"u1"}); len(users) != 1 || users[0].Nickname != "Third" {
		e.errorf("upsert did not replace u1: %+v", users)
	}
	if res := raw(bucket.CollMsg, store.RawUpsert, testkit.Raw(e.t, old)); res.Replaced != 1 {
		e.errorf("upsert of a stored bucket: %+v, want 1 replaced", res)
	}
}

// testRawMalformed stores documents that break the bucket rules, as real
// stores have them, and reads them back without error.
func testRawMalformed(e *fixture) {
	short := bucket.NewDoc("sg_bad:0")
	short.Msgs = short.Msgs[:99]
	nullSlot := bucket.NewDoc("sg_bad:1")
	nullSlot.Msgs[7] = nil
	odd := bucket.NewDoc("x:abc")
	testkit.Insert(e.t, e.b, bucket.CollMsg, short, nullSlot, odd)

	for _, id := range []string{"sg_bad:0", "sg_bad:1", "x:abc"} {
		if e.doc(id) == nil {
			e.errorf("%s was not stored or not found", id)
		}
	}
	if n := len(e.slots("sg_bad:0")); n != 99 {
		e.errorf("short bucket reads back with %d slots, want 99 as stored", n)
	}
	if v := e.slots("sg_bad:1")[7]; v.Type != bson.TypeNull {
		e.errorf("null slot reads back as %s", v.Type)
	}
	bs := e.buckets("sg_bad", 0, 1)
	if len(bs[0].Problems) == 0 || bs[0].Slots[99].Problem == "" || bs[1].Slots[7].Problem == "" {
		e.errorf("malformed buckets decoded without problems: %v / %q / %q", bs[0].Problems, bs[0].Slots[99].Problem, bs[1].Slots[7].Problem)
	}
	if got := e.scan(bucket.CollMsg, "x:"); len(got) != 1 || got[0].Lookup("doc_id").StringValue() != "x:abc" {
		e.errorf("scan with prefix x: found %d documents, want x:abc", len(got))
	}
	if n := len(e.scan(bucket.CollMsg, "")); n != 3 {
		e.errorf("scan of msg found %d documents, want 3", n)
	}
	ids, err := e.b.BucketIDs(e.ctx, "x")
	e.must(err, "bucket ids of x")
	if !slices.Equal(ids, []string{"x:abc"}) {
		e.errorf("BucketIDs(x) = %q, want [x:abc]", ids)
	}
}

// testShortArrayUpdate sets a slot past the end of a short msgs array: as in
// MongoDB the array grows to reach it.
func testShortArrayUpdate(e *fixture) {
	short := bucket.NewDoc("sg_short:0")
	short.Msgs = short.Msgs[:99]
	testkit.Insert(e.t, e.b, bucket.CollMsg, short)
	matched, err := e.b.SetSlotField(e.ctx, "sg_short:0", 99, store.FieldMsg, newMsg("sg_short", 100))
	e.must(err, "set slot 99 of a 99-slot bucket")
	slots := e.slots("sg_short:0")
	if !matched || len(slots) != 100 {
		e.fatalf("after $set msgs.99.msg: matched %v, %d slots, want true and 100", matched, len(slots))
	}
	if s := e.slot(slots[99]); s.Msg == nil || s.Msg.ClientMsgID != newMsg("sg_short", 100).ClientMsgID {
		e.errorf("slot 99 after $set = %+v", s)
	}
}

func testNamesAndMembers(e *fixture) {
	if users, err := e.b.Users(e.ctx, []string{"u1"}); err != nil || len(users) != 0 {
		e.errorf("users of an empty store = %v, %v; want none and no error", users, err)
	}
	testkit.Insert(e.t, e.b, bucket.CollUser,
		bson.D{{Key: "user_id", Value: "u1"}, {Key: "nickname", Value: "Una"}},
		bson.D{{Key: "user_id", Value: "u2"}, {Key: "nickname", Value: "Dos"}},
		bson.D{{Key: "user_id", Value: "u10"}, {Key: "nickname", Value: "Diez"}})
	testkit.Insert(e.t, e.b, bucket.CollGroup, bson.D{{Key: "group_id", Value: "g1"}, {Key: "group_name", Value: "Uno"}})
	testkit.Insert(e.t, e.b, bucket.CollGroupMember,
		bson.D{{Key: "group_id", Value: "g1"}, {Key: "user_id", Value: "u2"}, {Key: "role_level", Value: bucket.RoleMember}},
		bson.D{{Key: "group_id", Value: "g1"}, {Key: "user_id", Value: "u1"}, {Key: "nickname", Value: "Boss"}, {Key: "role_level", Value: bucket.RoleOwner}},
		bson.D{{Key: "group_id", Value: "g10"}, {Key: "user_id", Value: "u10"}, {Key: "role_level", Value: bucket.RoleOwner}})

	names, err := e.s.UserNames(e.ctx, []string{"u1", "u2", "u3"})
	e.must(err, "user names")
	if len(names) != 2 || names["u1"] != "Una" || names["u2"] != "Dos" {
		e.errorf("user names = %v", names)
	}
	groups, err := e.s.GroupNames(e.ctx, []string{"g1", "g2"})
	e.must(err, "group names")
	if len(groups) != 1 || groups["g1"] != "Uno" {
		e.errorf("group names = %v", groups)
	}
	members, err := e.s.Members(e.ctx, "sg_g1")
	e.must(err, "members of sg_g1")
	var got []string
	for _, m := range members {
		got = append(got, m.UserID+"/"+m.Nickname)
	}
	if want := []string{"u1/Boss", "u2/Dos"}; !slices.Equal(got, want) {
		e.errorf("members of sg_g1 = %q, want %q (owner first, no member of g10)", got, want)
	}
	gm, err := e.b.GroupMembers(e.ctx, "g2")
	if err != nil || len(gm) != 0 {
		e.errorf("members of an unknown group = %v, %v", gm, err)
	}
}

func testIndexes(e *fixture) {
	e.must(e.b.EnsureIndexes(e.ctx), "ensure indexes")
	e.must(e.b.EnsureIndexes(e.ctx), "ensure indexes again")
	idx, err := e.b.Indexes(e.ctx)
	e.must(err, "indexes")
	found := false
	for _, ix := range idx[bucket.CollMsg] {
		found = found || ix.Unique && slices.Equal(ix.Keys, []string{"doc_id"})
	}
	if !found {
		e.errorf("no unique doc_id index on msg: %+v", idx[bucket.CollMsg])
	}
	if e.b.Describe() == "" {
		e.errorf("Describe is empty")
	}
}
