package testkit_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/testkit"
)

// Insert upserts: a second document under the same key replaces the
// first, and a document given already marshalled is stored byte for byte.
func TestInsertReplacesByKeyAndKeepsRawBytes(t *testing.T) {
	_, b := testkit.TempStore(t, store.Options{})
	first := bson.D{{Key: "_id", Value: "a"}, {Key: "conversation_id", Value: "sg_g"}, {Key: "max_seq", Value: int64(1)}}
	second := testkit.Raw(t, bson.D{{Key: "_id", Value: "a"}, {Key: "conversation_id", Value: "sg_g"}, {Key: "max_seq", Value: int64(2)}})
	testkit.Insert(t, b, bucket.CollSeq, first)
	testkit.Insert(t, b, bucket.CollSeq, second)
	var stored []bson.Raw
	if err := b.ScanRaw(context.Background(), bucket.CollSeq, "", func(r bson.Raw) error {
		stored = append(stored, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(stored) != 1 || !bytes.Equal(stored[0], second) {
		t.Errorf("stored %v, want only %v", stored, second)
	}
}

// Open closes the store when the (sub)test ends, so the next holder can
// open the file; closing it sooner is harmless.
func TestOpenClosesAtCleanup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chatlens.db")
	opts := embedded.Options{NoSync: true, Timeout: time.Second} // a store left open fails the next Open
	t.Run("first holder", func(t *testing.T) {
		b := testkit.Open(t, path, opts)
		if err := b.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("second holder", func(t *testing.T) { testkit.Open(t, path, opts) })
	testkit.Open(t, path, opts)
}
