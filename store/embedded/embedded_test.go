package embedded_test

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/storetest"
)

// open is a fresh store in the test's temporary directory.
func open(t *testing.T) *embedded.Backend {
	t.Helper()
	b, err := embedded.Open(filepath.Join(t.TempDir(), "chatlens.db"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Backend { return open(t) },
		storetest.Caps{Concurrent: true, Name: "embedded", Parallel: true})
}

func TestSecondOpenFailsClearly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chatlens.db")
	b, err := embedded.Open(path, embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(t.Context())
	_, err = embedded.Open(path, embedded.Options{Timeout: 50 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "in use by another process") {
		t.Fatalf("second open: %v, want an in-use error", err)
	}
}

func TestReopenKeepsDocuments(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "chatlens.db")
	b, err := embedded.Open(path, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := store.New(b, store.Options{})
	if _, err := s.InsertMessages(ctx, "sg_g1", 1, []*bucket.MsgData{{SendID: "u1", Content: "hi", SendTime: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
	ro, err := embedded.Open(path, embedded.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close(ctx)
	raws, err := ro.FindBuckets(ctx, []string{"sg_g1:0"})
	if err != nil || len(raws) != 1 {
		t.Fatalf("after reopening: %d documents, %v", len(raws), err)
	}
	if got := bucket.DecodeBucket(raws[0]).Slots[0].Slot.Msg.Content; got != "hi" {
		t.Errorf("content after reopening = %q", got)
	}
	if _, err := ro.SetSlotField(ctx, "sg_g1:0", 0, store.FieldRevoke, &bucket.Revoke{}); err == nil {
		t.Errorf("a write to a read-only store succeeded")
	}
	if got := ro.Describe(); got != "embedded "+path {
		t.Errorf("Describe() = %q", got)
	}
}

func TestRefusesForeignBoltFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("theirs")); return err }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := embedded.Open(path, embedded.Options{}); err == nil || !strings.Contains(err.Error(), "did not create") {
		t.Fatalf("open of a foreign bbolt file: %v", err)
	}
}

// TestOddDocIDs stores doc_ids that are not "<cid>:<index>" and finds each
// by every read that names it.
func TestOddDocIDs(t *testing.T) {
	ctx := t.Context()
	b := open(t)
	defer b.Close(ctx)
	var docs []bson.Raw
	for _, id := range []string{"x:abc", "x:007", "noindex", "sg_g1:1:2", "si_a\x00b:3", ":5", "sg_g1:0"} {
		raw, _ := bson.Marshal(bucket.NewDoc(id))
		docs = append(docs, raw)
	}
	numeric, _ := bson.Marshal(bson.D{{Key: "doc_id", Value: int32(7)}})
	docs = append(docs, numeric)
	if _, err := b.InsertRaw(ctx, bucket.CollMsg, docs, store.RawUpsert); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"x:abc", "x:007", "noindex", "sg_g1:1:2", "si_a\x00b:3", ":5"} {
		raws, err := b.FindBuckets(ctx, []string{id})
		if err != nil || len(raws) != 1 || raws[0].Lookup("doc_id").StringValue() != id {
			t.Errorf("FindBuckets(%q) = %d documents, %v", id, len(raws), err)
		}
	}
	var all []string
	for after := ""; ; {
		cid, ok, err := b.NextConversationID(ctx, after)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		all = append(all, cid)
		after = cid
	}
	if want := []string{"sg_g1", "sg_g1:1", "x"}; !slices.Equal(all, want) {
		t.Errorf("conversations = %q, want %q", all, want)
	}
	ids, err := b.BucketIDs(ctx, "sg_g1")
	if err != nil || !slices.Equal(ids, []string{"sg_g1:0", "sg_g1:1:2"}) {
		t.Errorf("BucketIDs(sg_g1) = %q, %v (a doc_id starting with \"sg_g1:\" belongs to it, as in a MongoDB prefix query)", ids, err)
	}
	for prefix, want := range map[string]int{"": 8, "x:": 2, "x:0": 1, "no": 1, "si_a": 1, ":": 1, "sg_g1:1": 1} {
		n := 0
		if err := b.ScanRaw(ctx, bucket.CollMsg, prefix, func(bson.Raw) error { n++; return nil }); err != nil || n != want {
			t.Errorf("ScanRaw(msg, %q) saw %d documents (%v), want %d", prefix, n, err, want)
		}
	}
}

// TestScanRawInChunks scans more documents than one read transaction holds,
// writing from inside the callback, and sees each document once.
func TestScanRawInChunks(t *testing.T) {
	ctx := t.Context()
	b := open(t)
	defer b.Close(ctx)
	var docs []bson.Raw
	for i := range 600 {
		raw, _ := bson.Marshal(bucket.NewDoc(bucket.DocID("sg_big", int64(i))))
		docs = append(docs, raw)
	}
	raw, _ := bson.Marshal(bucket.NewDoc("sg_bigger:0"))
	if _, err := b.InsertRaw(ctx, bucket.CollMsg, append(docs, raw), store.RawUpsert); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	err := b.ScanRaw(ctx, bucket.CollMsg, "sg_big:", func(d bson.Raw) error {
		seen[d.Lookup("doc_id").StringValue()]++
		return b.RaiseMaxSeq(ctx, "sg_big", int64(len(seen)))
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 600 {
		t.Errorf("scan saw %d distinct buckets, want 600", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s seen %d times", id, n)
		}
	}
}

// TestUpdateOfNullSlotFails is MongoDB's answer to $set into a null array
// element: an error, and the document unchanged.
func TestUpdateOfNullSlotFails(t *testing.T) {
	ctx := t.Context()
	b := open(t)
	defer b.Close(ctx)
	doc := bucket.NewDoc("sg_g1:0")
	doc.Msgs[3] = nil
	raw, _ := bson.Marshal(doc)
	if _, err := b.InsertRaw(ctx, bucket.CollMsg, []bson.Raw{raw}, store.RawUpsert); err != nil {
		t.Fatal(err)
	}
	before, _ := b.FindBuckets(ctx, []string{"sg_g1:0"})
	if _, err := b.SetSlotField(ctx, "sg_g1:0", 3, store.FieldMsg, &bucket.MsgData{}); err == nil {
		t.Errorf("$set into a null slot succeeded")
	}
	if _, err := b.MarkSlotRead(ctx, "sg_g1:0", 3, "u1"); err == nil {
		t.Errorf("mark read of a null slot succeeded")
	}
	if _, err := b.AddToDelList(ctx, "sg_g1:0", 3, []string{"u1"}); err == nil {
		t.Errorf("$addToSet into a null slot succeeded")
	}
	after, _ := b.FindBuckets(ctx, []string{"sg_g1:0"})
	if !bytes.Equal(before[0], after[0]) {
		t.Errorf("failed updates changed the document")
	}
}
