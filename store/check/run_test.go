package check

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check/checktest"
	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/testkit"
)

// openStore is a Store over a fresh embedded store holding the msg documents docs.
func openStore(t *testing.T, docs ...any) (*store.Store, store.Backend) {
	t.Helper()
	st, b := testkit.TempStore(t, store.Options{})
	testkit.Insert(t, b, bucket.CollMsg, docs...)
	return st, b
}

func seqRecord(c string, maxSeq int64) bson.D {
	return bson.D{{Key: "conversation_id", Value: c}, {Key: "max_seq", Value: maxSeq}, {Key: "min_seq", Value: int64(0)}}
}

func runCheck(t *testing.T, st *store.Store, c string) (*Report, string) {
	t.Helper()
	r, err := Run(context.Background(), st, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r.Write(&out)
	return r, out.String()
}

// TestRunCatalogue: every malformed bucket, stored through the embedded
// backend as import stores it, is reported by check with its kind, and the
// printed report names it.
func TestRunCatalogue(t *testing.T) {
	for _, c := range catalogue() {
		t.Run(c.name, func(t *testing.T) {
			st, b := openStore(t, c.doc)
			testkit.Insert(t, b, bucket.CollSeq, seqRecord(cid, 100))
			r, out := runCheck(t, st, "")
			if r.Documents != 1 || r.Problems() == 0 {
				t.Fatalf("read %d documents, %d problems; want 1 document with problems", r.Documents, r.Problems())
			}
			for k := range r.ByKind {
				if k != c.kind {
					t.Errorf("reported %s, want only %s\n%s", k, c.kind, out)
				}
			}
			if !strings.Contains(out, "  "+string(c.kind)+"  ") {
				t.Errorf("report does not list a %s problem:\n%s", c.kind, out)
			}
		})
	}
}

// TestRunClean: demo-like buckets of two conversations with sound seq
// documents report no problem, and progress counts each document.
func TestRunClean(t *testing.T) {
	other := "sg_team"
	st, b := openStore(t, cleanBucket(), bucketDoc(cid+":1", cleanSlots2(1)), bucketDoc(other+":0", cleanSlots()))
	testkit.Insert(t, b, bucket.CollSeq, seqRecord(cid, 200), seqRecord(other, 30))
	var calls []string
	r, err := Run(context.Background(), st, cid, func(done, total int) { calls = append(calls, fmt.Sprint(done, "/", total)) })
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r.Write(&out)
	if r.Problems() != 0 {
		t.Fatalf("clean buckets report problems:\n%s", out.String())
	}
	if got := strings.Join(calls, " "); got != "1/2 2/2" {
		t.Errorf("progress %q, want 1/2 2/2", got)
	}
	if r.Documents != 2 || r.Slots != 200 || r.Messages != 58 || r.SeqChecked != 1 {
		t.Errorf("summary %d documents, %d slots, %d messages, %d seq documents; want 2, 200, 58, 1",
			r.Documents, r.Slots, r.Messages, r.SeqChecked)
	}
	if !strings.Contains(out.String(), "0 problems") || !strings.Contains(out.String(), "{doc_id: 1} unique") {
		t.Errorf("report lacks the summary or the index:\n%s", out.String())
	}
	all, _ := runCheck(t, st, "")
	if all.Documents != 3 || all.Problems() != 0 {
		t.Errorf("whole store: %d documents, %d problems; want 3, 0", all.Documents, all.Problems())
	}
}

// cleanSlots2 is cleanSlots moved to bucket index, seqs agreeing.
func cleanSlots2(index int64) bson.A {
	s := cleanSlots()
	for i, v := range s {
		sl := v.(bson.D)
		if msg, ok := sl[0].Value.(bson.D); ok {
			s[i] = with(sl, "msg", with(msg, "seq", bucket.FirstSeq(index)+int64(i)))
		}
	}
	return s
}

// TestRunSeqRecordBelowMessages: a seq document whose max_seq is below a
// stored message would let the server hand that seq out again.
func TestRunSeqRecordBelowMessages(t *testing.T) {
	st, b := openStore(t, cleanBucket(), bucketDoc(cid+":1", cleanSlots2(1)))
	testkit.Insert(t, b, bucket.CollSeq, seqRecord(cid, 120))
	r, out := runCheck(t, st, cid)
	if r.Problems() != 1 || r.ByKind[bucket.KindSeqRecord] != 1 {
		t.Fatalf("want one seq-record problem:\n%s", out)
	}
	if p := r.Listed[0]; p.DocID != cid+":1" || p.Seq != 130 || p.Slot != 29 {
		t.Errorf("problem at %s slot %d seq %d, want %s:1 slot 29 seq 130", p.DocID, p.Slot, p.Seq, cid)
	}
}

// noIndexes is a backend that reports the indexes it is given.
// It serves store.RawDocs's Indexes; every other call goes to the
// Backend it wraps.
type noIndexes struct {
	store.Backend
	idx map[string][]store.IndexInfo
}

func (n noIndexes) Indexes(context.Context) (map[string][]store.IndexInfo, error) { return n.idx, nil }

// TestRunIndex: a msg collection without a unique doc_id index is reported.
func TestRunIndex(t *testing.T) {
	_, b := openStore(t, cleanBucket())
	testkit.Insert(t, b, bucket.CollSeq, seqRecord(cid, 100))
	for name, idx := range map[string][]store.IndexInfo{
		"absent":     {{Name: "_id_", Keys: []string{"_id"}, Unique: true}},
		"not unique": {{Name: "doc_id_1", Keys: []string{"doc_id"}}},
	} {
		t.Run(name, func(t *testing.T) {
			st := store.New(noIndexes{b, map[string][]store.IndexInfo{bucket.CollMsg: idx}}, store.Options{})
			r, out := runCheck(t, st, "")
			if r.Problems() != 1 || r.ByKind[bucket.KindIndex] != 1 {
				t.Errorf("want one index problem:\n%s", out)
			}
		})
	}
}

// TestRunFiltersConversation: checking one conversation ignores the broken
// buckets of another, even one whose ID starts the same way.
func TestRunFiltersConversation(t *testing.T) {
	st, b := openStore(t, cleanBucket(), bucketDoc(cid+"x:0", withSlot(5, nil)), bucketDoc("sg_other:0", bson.A{}))
	testkit.Insert(t, b, bucket.CollSeq, seqRecord(cid, 100), seqRecord(cid+"x", 100))
	r, out := runCheck(t, st, cid)
	if r.Documents != 1 || r.Problems() != 0 {
		t.Errorf("want 1 clean document:\n%s", out)
	}
	if all, _ := runCheck(t, st, ""); all.Documents != 3 || all.Problems() != 2 {
		t.Errorf("whole store: %d documents, %d problems; want 3, 2", all.Documents, all.Problems())
	}
}

// TestReportIsSafe: hostile doc_ids and field names reach the terminal
// escaped: no ESC, BEL, bidi override or newline of theirs is written.
func TestReportIsSafe(t *testing.T) {
	hostile := "si_\x1b]0;pwned\x07\u202e\n:x"
	extra := with(emptySlot(), "\x1b[2J", "")
	st, _ := openStore(t, bucketDoc(hostile, withSlot(50, extra)))
	r, out := runCheck(t, st, "")
	if r.ByKind[bucket.KindDocID] != 1 || r.ByKind[bucket.KindEmptySlot] != 1 {
		t.Fatalf("want a doc-id and an empty-slot problem:\n%s", out)
	}
	for _, bad := range []string{"\x1b", "\x07", "\u202e"} {
		if strings.Contains(out, bad) {
			t.Errorf("report writes %q raw:\n%s", bad, out)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(line, ":x") || strings.HasPrefix(line, `\u202e`) {
			t.Errorf("a doc_id broke a line: %q", line)
		}
	}
	if !strings.Contains(out, `\x1b]0;pwned\a\u202e\n:x`) {
		t.Errorf("report does not show the doc_id escaped:\n%s", out)
	}
}

// TestReportCapsTheList: a store broken everywhere lists MaxListed problems
// and counts them all.
func TestReportCapsTheList(t *testing.T) {
	nulls := make(bson.A, 100)
	var docs []any
	for i := range 11 {
		docs = append(docs, bucketDoc(bucket.DocID(cid, int64(i)), nulls))
	}
	st, b := openStore(t, docs...)
	testkit.Insert(t, b, bucket.CollSeq, seqRecord(cid, 1100))
	r, out := runCheck(t, st, cid)
	if r.Problems() != 1100 || len(r.Listed) != MaxListed || r.ByKind[bucket.KindNullSlot] != 1100 {
		t.Fatalf("%d problems, %d listed; want 1100, %d", r.Problems(), len(r.Listed), MaxListed)
	}
	if !strings.Contains(out, "and 100 more") {
		t.Errorf("report does not say how many were left out")
	}
}

// TestRunDemoDataset: the demo dataset, written through the state machine
// with holes, revokes, deletes and read flags, breaks no invariant.
func TestRunDemoDataset(t *testing.T) {
	st, _ := openStore(t)
	if _, err := demo.Seed(context.Background(), st, demo.Options{Seed: 7, Conversations: 4, Messages: 120, LongMessages: -1}, nil); err != nil {
		t.Fatal(err)
	}
	r, out := runCheck(t, st, "")
	if r.Documents == 0 || r.Messages == 0 || r.Problems() != 0 {
		t.Errorf("demo dataset:\n%s", out)
	}
}

// TestRunReportsDuplicateFields: a bucket holding doc_id twice (or msgs
// twice) is read by its first field and exported by every field; check
// names it.
func TestRunReportsDuplicateFields(t *testing.T) {
	for _, field := range []string{"doc_id", "msgs"} {
		t.Run(field, func(t *testing.T) {
			doc := checktest.CleanBucket()
			for _, e := range doc {
				if e.Key == field {
					doc = append(doc, e)
				}
			}
			st, b := openStore(t, doc)
			testkit.Insert(t, b, bucket.CollSeq, seqRecord(cid, 100))
			r, out := runCheck(t, st, "")
			if r.ByKind[bucket.KindDuplicate] != 1 || !strings.Contains(out, "field "+field+" appears more than once") {
				t.Errorf("check of a bucket with %s twice:\n%s", field, out)
			}
		})
	}
}

// seqUserTwice scans every seq_user document twice: the duplicates two
// racing first upserts leave on MongoDB (the embedded store keys seq_user
// by user and conversation, so it cannot hold them itself).
type seqUserTwice struct{ store.Backend }

func (b seqUserTwice) ScanRaw(ctx context.Context, coll, prefix string, fn func(bson.Raw) error) error {
	if coll != bucket.CollSeqUser {
		return b.Backend.ScanRaw(ctx, coll, prefix, fn)
	}
	return b.Backend.ScanRaw(ctx, coll, prefix, func(raw bson.Raw) error {
		if err := fn(raw); err != nil {
			return err
		}
		return fn(raw)
	})
}

func TestRunReportsDuplicateSeqUsers(t *testing.T) {
	_, b := openStore(t, checktest.CleanBucket())
	testkit.Insert(t, b, bucket.CollSeq, seqRecord(cid, 100))
	testkit.Insert(t, b, bucket.CollSeqUser, bucket.SeqUser{UserID: alice, ConversationID: cid, ReadSeq: 4})
	r, out := runCheck(t, store.New(seqUserTwice{b}, store.Options{}), "")
	if r.ByKind[bucket.KindDuplicate] != 1 || !strings.Contains(out, "2 seq_user documents for user \""+alice+"\"") {
		t.Errorf("check of duplicate seq_user documents:\n%s", out)
	}
}
