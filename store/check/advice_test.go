package check

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check/checktest"
	"github.com/chatlens/chatlens/store/testkit"
)

// sharedWithOpenIM is a backend whose indexes OpenIM Server creates too
// (as on MongoDB), reporting the indexes it is given.
type sharedWithOpenIM struct{ noIndexes }

func (sharedWithOpenIM) SharesIndexesWithOpenIM() bool { return true }

// openCleanStore holds one sound bucket and its seq document, so that only
// indexes can make the report unclean.
func openCleanStore(t *testing.T) (*store.Store, store.Backend) {
	t.Helper()
	st, b := openStore(t, cleanBucket())
	testkit.Insert(t, b, bucket.CollSeq, seqRecord(checktest.Cid, 100))
	return st, b
}

func writeReport(t *testing.T, st *store.Store) (*Report, string) {
	t.Helper()
	r, err := Run(context.Background(), st, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r.Write(&out)
	return r, out.String()
}

// A missing OpenIM index (open-im-server pkg/common/storage/database/mgo/
// seq_conversation.go NewSeqConversationMongo creates conversation_id_1) is
// advice naming the index OpenIM will create; check still passes. A
// collection the database does not have gets no advice.
func TestMissingOpenIMIndexIsAdvice(t *testing.T) {
	_, b := openCleanStore(t)
	idx := map[string][]store.IndexInfo{
		bucket.CollMsg: {{Name: "_id_", Keys: []string{"_id"}, Unique: true}, {Name: "doc_id_1", Keys: []string{"doc_id"}, Unique: true}},
		bucket.CollSeq: {{Name: "_id_", Keys: []string{"_id"}, Unique: true}},
	}
	r, out := writeReport(t, store.New(sharedWithOpenIM{noIndexes{b, idx}}, store.Options{}))
	if r.Problems() != 0 {
		t.Errorf("a missing seq index failed check:\n%s", out)
	}
	want := "advice: seq has no index on {conversation_id: 1}: OpenIM creates conversation_id_1 at start-up"
	if !strings.Contains(out, want) {
		t.Errorf("report lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "user has no index") || strings.Count(out, "advice:") != 1 {
		t.Errorf("advice for collections the database does not have:\n%s", out)
	}
}

// Without a unique doc_id index the bucket state machine (open-im-server
// pkg/common/storage/controller/msg.go BatchInsertChat2DB, and chatlens's)
// cannot learn that another writer created a bucket first: that stays a
// problem, not advice.
func TestMissingUniqueDocIDStaysAProblem(t *testing.T) {
	_, b := openCleanStore(t)
	idx := map[string][]store.IndexInfo{bucket.CollMsg: {{Name: "doc_id_1", Keys: []string{"doc_id"}}}}
	r, out := writeReport(t, store.New(sharedWithOpenIM{noIndexes{b, idx}}, store.Options{}))
	if r.Problems() != 1 || r.ByKind[bucket.KindIndex] != 1 || len(r.Advice) != 0 {
		t.Errorf("want one index problem and no advice:\n%s", out)
	}
}

// The embedded store has no indexes to create: its check lists its key
// layouts and gives no index advice.
func TestEmbeddedCheckGivesNoIndexAdvice(t *testing.T) {
	st, _ := openCleanStore(t)
	r, out := writeReport(t, st)
	if len(r.Advice) != 0 || strings.Contains(out, "advice:") || r.Problems() != 0 {
		t.Errorf("embedded check:\n%s", out)
	}
	if !strings.Contains(out, "indexes: msg {doc_id: 1} unique") {
		t.Errorf("embedded check does not list its doc_id key:\n%s", out)
	}
}

// A second, non-unique index on doc_id (a hashed one for sharding) beside
// OpenIM's unique doc_id_1 is neither a problem nor advice.
func TestHashedDocIDBesideTheUniqueOneIsFine(t *testing.T) {
	_, b := openCleanStore(t)
	idx := map[string][]store.IndexInfo{bucket.CollMsg: {
		{Name: "doc_id_hashed", Keys: []string{"doc_id"}}, {Name: "doc_id_1", Keys: []string{"doc_id"}, Unique: true}}}
	r, out := writeReport(t, store.New(sharedWithOpenIM{noIndexes{b, idx}}, store.Options{}))
	if r.Problems() != 0 || len(r.Advice) != 0 {
		t.Errorf("want a clean report:\n%s", out)
	}
}
