package mongostore_test

import (
	"testing"
	"time"

	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
)

// openDB opens a fresh database of the server at uri, with chatlens's indexes.
func openDB(t *testing.T, uri string) *mongostore.Backend {
	t.Helper()
	b, err := mongostore.Open(t.Context(), uri, mongotest.Database(t, uri), mongostore.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(t.Context()) })
	if err := b.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	return b
}

// fresh is an empty database on CHATLENS_TEST_MONGO_URI or a new FerretDB.
func fresh(t *testing.T) *mongostore.Backend {
	t.Helper()
	uri, _ := mongotest.URI(t)
	return openDB(t, uri)
}
