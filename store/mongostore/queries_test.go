package mongostore_test

import (
	"time"

	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
)

// tinyBuckets are msg documents with a short array, one per doc_id:
// FerretDB decodes every document on each read, so the shape tests keep
// documents small.
func tinyBuckets(docIDs ...string) []any {
	docs := make([]any, len(docIDs))
	for i, id := range docIDs {
		docs[i] = bson.D{{Key: "doc_id", Value: id}, {Key: "msgs", Value: bson.A{}}}
	}
	return docs
}

func TestNextConversationIDWalksOddDocIDs(t *testing.T) {
	b := fresh(t)
	ids := []string{"plain", "sg_a:0", "sg_a:1", "sg_a:x", "sg_ab:3", "si_u1_u2:0", "zz:notanumber:7"}
	testkit.Insert(t, b, bucket.CollMsg, tinyBuckets(ids...)...)
	var got []string
	for after := ""; len(got) < 20; {
		cid, ok, err := b.NextConversationID(t.Context(), after)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, cid)
		after = cid
	}
	want := []string{"plain", "sg_a", "sg_ab", "si_u1_u2", "zz:notanumber"}
	if !slices.Equal(got, want) {
		t.Errorf("conversation walk = %v, want %v", got, want)
	}
}

func TestBucketIDsKeepToOneConversation(t *testing.T) {
	b := fresh(t)
	testkit.Insert(t, b, bucket.CollMsg, tinyBuckets("sg_a:0", "sg_a:1", "sg_a:10", "sg_ab:0", "sg_:0", "sg_a;0", "sg_a")...)
	got, err := b.BucketIDs(t.Context(), "sg_a")
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := []string{"sg_a:0", "sg_a:1", "sg_a:10"}; !slices.Equal(got, want) {
		t.Errorf("BucketIDs(sg_a) = %v, want %v", got, want)
	}
}

func TestImportedNumbersOfAnyTypeAreRead(t *testing.T) {
	b := fresh(t)
	ctx := t.Context()
	imports := map[string][]bson.D{
		bucket.CollSeq: {{{Key: "conversation_id", Value: "sg_g"}, {Key: "max_seq", Value: int32(120)}, {Key: "min_seq", Value: 3.0}}},
		bucket.CollSeqUser: {{{Key: "user_id", Value: "u1"}, {Key: "conversation_id", Value: "sg_g"},
			{Key: "read_seq", Value: 99.0}, {Key: "max_seq", Value: int64(0)}}},
		bucket.CollConversation: {{{Key: "owner_user_id", Value: "u1"}, {Key: "conversation_id", Value: "sg_g"},
			{Key: "conversation_type", Value: 3.0}, {Key: "group_id", Value: "g"}, {Key: "is_pinned", Value: int32(1)}}},
		bucket.CollGroupMember: {{{Key: "group_id", Value: "g"}, {Key: "user_id", Value: "u1"},
			{Key: "role_level", Value: int64(100)}, {Key: "join_time", Value: 1.7e12}}},
	}
	for coll, docs := range imports {
		for _, d := range docs {
			testkit.Insert(t, b, coll, d)
		}
	}
	seqs, err := b.SeqRecords(ctx, []string{"sg_g"})
	if err != nil || len(seqs) != 1 || seqs[0].MaxSeq != 120 || seqs[0].MinSeq != 3 {
		t.Errorf("seq = %+v, %v; want max 120 min 3", seqs, err)
	}
	users, err := b.SeqUsers(ctx, "u1", []string{"sg_g"})
	if err != nil || len(users) != 1 || users[0].ReadSeq != 99 {
		t.Errorf("seq_user = %+v, %v; want read_seq 99", users, err)
	}
	convs, err := b.Conversations(ctx, "u1")
	if err != nil || len(convs) != 1 || convs[0].ConversationType != 3 || !convs[0].IsPinned {
		t.Errorf("conversation = %+v, %v; want type 3, pinned", convs, err)
	}
	members, err := b.GroupMembers(ctx, "g")
	if err != nil || len(members) != 1 || members[0].RoleLevel != bucket.RoleOwner || !members[0].JoinTime.Equal(time.UnixMilli(1.7e12)) {
		t.Errorf("group_member = %+v, %v; want owner joined at 1.7e12", members, err)
	}

	// $max against an imported double keeps the larger number.
	if err := b.RaiseReadSeq(ctx, "u1", "sg_g", 50); err != nil {
		t.Fatal(err)
	}
	if users, _ := b.SeqUsers(ctx, "u1", []string{"sg_g"}); len(users) != 1 || users[0].ReadSeq != 99 {
		t.Errorf("read seq lowered by a smaller raise: %+v", users)
	}
}

func TestRaiseUpsertsCreateRecords(t *testing.T) {
	b := fresh(t)
	ctx := t.Context()
	for _, v := range []int64{10, 4, 12} {
		if err := b.RaiseMaxSeq(ctx, "si_a_b", v); err != nil {
			t.Fatal(err)
		}
		if err := b.RaiseReadSeq(ctx, "a", "si_a_b", v); err != nil {
			t.Fatal(err)
		}
	}
	seqs, err := b.SeqRecords(ctx, []string{"si_a_b", "si_missing"})
	if err != nil || len(seqs) != 1 || seqs[0].MaxSeq != 12 {
		t.Errorf("seq = %+v, %v; want one record with max_seq 12", seqs, err)
	}
	users, err := b.SeqUsers(ctx, "a", []string{"si_a_b"})
	if err != nil || len(users) != 1 || users[0].ReadSeq != 12 {
		t.Errorf("seq_user = %+v, %v; want read_seq 12", users, err)
	}
}

func TestInsertRawReplacesADocumentWithAnotherID(t *testing.T) {
	b := fresh(t)
	ctx := t.Context()
	first := testkit.Raw(t, bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "doc_id", Value: "sg_g:0"}, {Key: "msgs", Value: bson.A{"old"}}})
	second := testkit.Raw(t, bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "doc_id", Value: "sg_g:0"}, {Key: "msgs", Value: bson.A{"new"}}})
	for _, doc := range []bson.Raw{first, second} {
		if _, err := b.InsertRaw(ctx, bucket.CollMsg, []bson.Raw{doc}, store.RawUpsert); err != nil {
			t.Fatal(err)
		}
	}
	var stored []bson.Raw
	if err := b.ScanRaw(ctx, bucket.CollMsg, "", func(raw bson.Raw) error {
		stored = append(stored, raw)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(stored) != 1 || !bsonEqual(stored[0], second) {
		t.Errorf("after importing a bucket twice with different _ids, stored %v, want only %v", stored, second)
	}
}

func bsonEqual(a, b bson.Raw) bool { return a.String() == b.String() }

func TestScanRawPrefixAndOrder(t *testing.T) {
	b := fresh(t)
	ctx := t.Context()
	ids := []string{"sg_b:0", "sg_a:1", "sg_ä:0", "sg_a:0", "sg_ab:0", "sh:0"}
	testkit.Insert(t, b, bucket.CollMsg, tinyBuckets(ids...)...)
	tests := []struct {
		prefix string
		want   []string
	}{
		{"", []string{"sg_a:0", "sg_a:1", "sg_ab:0", "sg_b:0", "sg_ä:0", "sh:0"}},
		{"sg_a:", []string{"sg_a:0", "sg_a:1"}},
		{"sg_a", []string{"sg_a:0", "sg_a:1", "sg_ab:0"}},
		{"sg_ä", []string{"sg_ä:0"}},
		{"nothing", nil},
	}
	for _, tt := range tests {
		var got []string
		err := b.ScanRaw(ctx, bucket.CollMsg, tt.prefix, func(raw bson.Raw) error {
			got = append(got, raw.Lookup("doc_id").StringValue())
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ScanRaw(prefix %q) = %v, want %v", tt.prefix, got, tt.want)
		}
	}
}

func TestEnsureIndexesRefusesNonUniqueDocID(t *testing.T) {
	b := fresh(t) // has the unique index already
	idx, err := b.Indexes(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var unique bool
	for _, ix := range idx[bucket.CollMsg] {
		unique = unique || (slices.Equal(ix.Keys, []string{"doc_id"}) && ix.Unique)
	}
	if !unique {
		t.Fatalf("msg indexes %+v lack a unique doc_id index", idx[bucket.CollMsg])
	}
	// A second doc_id insert is refused by that index: the state machine's signal.
	if err := b.InsertBucket(t.Context(), bucket.NewDoc("sg_g:0")); err != nil {
		t.Fatal(err)
	}
	if err := b.InsertBucket(t.Context(), bucket.NewDoc("sg_g:0")); err != store.ErrDuplicateKey {
		t.Errorf("second insert of one doc_id: %v, want store.ErrDuplicateKey", err)
	}
}

func TestMissingCollectionsReadEmpty(t *testing.T) {
	b := fresh(t)
	ctx := t.Context()
	users, err := b.Users(ctx, []string{"u1"})
	if err != nil || len(users) != 0 {
		t.Errorf("Users on a database without a user collection = %v, %v", users, err)
	}
	raws, err := b.FindBuckets(ctx, []string{"sg_g:0"})
	if err != nil || len(raws) != 0 {
		t.Errorf("FindBuckets on an empty database = %v, %v", raws, err)
	}
	_, ok, err := b.NextConversationID(ctx, "")
	if err != nil || ok {
		t.Errorf("NextConversationID on an empty database = %v, %v", ok, err)
	}
	if d := b.Describe(); strings.Contains(d, "?") {
		t.Errorf("Describe shows URI options: %s", d)
	}
}
