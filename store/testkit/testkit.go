// Package testkit holds the helpers tests share: an embedded store opened
// for a test (a fresh one in the test's temporary directory, or one at a
// given path), documents marshalled to BSON, and raw inserts of them as an
// import stores them. Import it only from _test.go files.
package testkit

import (
	"context"
	"path/filepath"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
)

// Open opens the embedded store at path with opts and closes it when the
// test ends; a test may close it sooner (closing twice is harmless), for
// instance before a command opens the same file.
func Open(t testing.TB, path string, opts embedded.Options) *embedded.Backend {
	t.Helper()
	b, err := embedded.Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	return b
}

// TempBackend is a fresh, empty embedded store in the test's temporary
// directory, without fsync: nothing outlives the test.
func TempBackend(t testing.TB) *embedded.Backend {
	t.Helper()
	return Open(t, filepath.Join(t.TempDir(), "chatlens.db"), embedded.Options{NoSync: true})
}

// TempStore is a Store with opts over a fresh TempBackend, and that backend.
func TempStore(t testing.TB, opts store.Options) (*store.Store, *embedded.Backend) {
	t.Helper()
	b := TempBackend(t)
	return store.New(b, opts), b
}

// Raw is doc (a bson.D, a map, a struct, or a bson.Raw, kept as it is)
// marshalled to BSON.
func Raw(t testing.TB, doc any) bson.Raw {
	t.Helper()
	raw, err := bson.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// Insert stores docs into coll of b in upsert mode, as `import` does, each
// marshalled with Raw; a document already there under the same key is
// replaced.
func Insert(t testing.TB, b store.RawDocs, coll string, docs ...any) {
	t.Helper()
	if len(docs) == 0 {
		return
	}
	raws := make([]bson.Raw, len(docs))
	for i, d := range docs {
		raws[i] = Raw(t, d)
	}
	if _, err := b.InsertRaw(context.Background(), coll, raws, store.RawUpsert); err != nil {
		t.Fatal(err)
	}
}

// Writes below the store's checks, for tests that set up what no command
// writes (a broken slot, buckets laid out whole): through st's backend, so
// a test of a package above store never reaches the backend itself.

// InsertInto stores docs into coll of st's backend as Insert does.
func InsertInto(t testing.TB, st *store.Store, coll string, docs ...any) {
	t.Helper()
	Insert(t, st.Backend(), coll, docs...)
}

// InsertBucket stores doc as it is.
func InsertBucket(t testing.TB, st *store.Store, doc *bucket.Doc) {
	t.Helper()
	if err := st.Backend().InsertBucket(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
}

// RaiseMaxSeq raises cid's seq document to maxSeq.
func RaiseMaxSeq(t testing.TB, st *store.Store, cid string, maxSeq int64) {
	t.Helper()
	if err := st.Backend().RaiseMaxSeq(context.Background(), cid, maxSeq); err != nil {
		t.Fatal(err)
	}
}

// SetSlotField sets one field of one slot as it is, past every check.
func SetSlotField(t testing.TB, st *store.Store, docID string, slot int, field string, value any) {
	t.Helper()
	if _, err := st.Backend().SetSlotField(context.Background(), docID, slot, field, value); err != nil {
		t.Fatal(err)
	}
}
