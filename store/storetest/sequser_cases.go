package storetest

import (
	"bytes"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// seqUserDoc is a seq_user document as an export holds it: with its _id.
func seqUserDoc(e *fixture, id bson.ObjectID, uid, cid string, minSeq, readSeq int64) bson.Raw {
	return testkit.Raw(e.t, bson.D{{Key: "_id", Value: id}, {Key: "user_id", Value: uid}, {Key: "conversation_id", Value: cid},
		{Key: "min_seq", Value: minSeq}, {Key: "max_seq", Value: int64(0)}, {Key: "read_seq", Value: readSeq}})
}

// testSeqUserDuplicates: two seq_user documents for one user and
// conversation, as OpenIM leaves them (its index on the pair is not unique:
// pkg/common/storage/database/mgo/seq_user.go), are both stored when an
// export names them under their own _ids, and read back in the order they
// were stored: the first is the one the server's FindOne returns. A
// re-import of the same _ids stores no third; chatlens's own read seq
// raise changes the first, as the server's update on the pair does.
func testSeqUserDuplicates(e *fixture) {
	const cid = "sg_dg1"
	first, second := bson.NewObjectID(), bson.NewObjectID()
	// The later-stored document has the lower _id: the order is the
	// order of storing, not of _id.
	if bytes.Compare(first[:], second[:]) < 0 {
		first, second = second, first
	}
	res, err := e.b.InsertRaw(e.ctx, bucket.CollSeqUser, []bson.Raw{
		seqUserDoc(e, first, "dpb", cid, 12, 11),
		seqUserDoc(e, bson.NewObjectID(), "dpa", cid, 0, 11),
		seqUserDoc(e, second, "dpb", cid, 0, 3),
	}, store.RawInsert)
	e.must(err, "import seq_user")
	if res.Inserted != 3 || len(res.Refused) != 0 {
		e.errorf("import of two seq_user documents of dpb and one of dpa: %+v, want 3 inserted", res)
	}
	minSeqs := func() []int64 {
		e.t.Helper()
		got, err := e.b.SeqUsers(e.ctx, "dpb", []string{cid})
		e.must(err, "seq users of dpb")
		var out []int64
		for _, u := range got {
			out = append(out, u.MinSeq)
		}
		return out
	}
	if got := minSeqs(); !slices.Equal(got, []int64{12, 0}) {
		e.errorf("dpb's seq_user documents read back with min_seq %v, want [12 0]: in the order stored", got)
	}
	of, err := e.b.SeqUsersOf(e.ctx, cid, []string{"dpa", "dpb"})
	e.must(err, "seq users of the group")
	var dpb []int64
	for _, u := range of {
		if u.UserID == "dpb" {
			dpb = append(dpb, u.MinSeq)
		}
	}
	if len(of) != 3 || !slices.Equal(dpb, []int64{12, 0}) {
		e.errorf("SeqUsersOf: %+v, want dpa's one and dpb's two in the order stored", of)
	}

	res, err = e.b.InsertRaw(e.ctx, bucket.CollSeqUser, []bson.Raw{seqUserDoc(e, second, "dpb", cid, 0, 3)}, store.RawInsert)
	e.must(err, "import again")
	if res.Inserted != 0 || len(res.Refused) != 1 {
		e.errorf("importing a stored _id again: %+v, want it refused", res)
	}
	res, err = e.b.InsertRaw(e.ctx, bucket.CollSeqUser, []bson.Raw{seqUserDoc(e, second, "dpb", cid, 5, 3)}, store.RawUpsert)
	e.must(err, "upsert again")
	if res.Replaced != 1 {
		e.errorf("upserting a stored _id: %+v, want it replaced", res)
	}
	if got := minSeqs(); !slices.Equal(got, []int64{12, 5}) {
		e.errorf("after replacing the second document: min_seq %v, want [12 5]", got)
	}

	e.must(e.b.RaiseReadSeq(e.ctx, "dpb", cid, 20), "raise dpb's read seq")
	got, err := e.b.SeqUsers(e.ctx, "dpb", []string{cid})
	e.must(err, "seq users of dpb")
	// Told apart by min_seq, not by place: an engine on PostgreSQL (FerretDB
	// v2 with DocumentDB) moves an updated document to the end of the
	// natural order, as its heap does with an updated row.
	readOf := map[int64]int64{}
	for _, u := range got {
		readOf[u.MinSeq] = u.ReadSeq
	}
	if len(got) != 2 || readOf[12] != 20 || readOf[5] != 3 {
		e.errorf("after raising dpb's read seq: %+v, want the first stored document (min_seq 12) raised to 20, the second (min_seq 5) left at 3", got)
	}
}

// testSeqUserNeverDuplicated: chatlens's read seq raise stores one
// document for a pair that has none, under the _id derived from the pair
// (bucket.SeqUserID), and raises that one ever after: a second writer's
// insert would meet the unique _id index.
func testSeqUserNeverDuplicated(e *fixture) {
	for _, seq := range []int64{4, 9, 7} {
		e.must(e.b.RaiseReadSeq(e.ctx, "bob", "si_alice_bob", seq), "raise bob's read seq")
	}
	docs := e.scan(bucket.CollSeqUser, "")
	if len(docs) != 1 {
		e.fatalf("seq_user holds %d documents after three raises, want 1", len(docs))
	}
	if id, ok := docs[0].Lookup("_id").StringValueOK(); !ok || id != bucket.SeqUserID("bob", "si_alice_bob") {
		e.errorf("_id %s, want %q", docs[0].Lookup("_id"), bucket.SeqUserID("bob", "si_alice_bob"))
	}
	e.wantReadSeq("bob", "si_alice_bob", 9)
}
