package mongostore_test

import (
	"os"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/storetest"
)

const ferretSkip = "FerretDB v1 loses concurrent updates to one document (read-modify-write without a lock)"

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

func TestContractFerretDB(t *testing.T) {
	srv := mongotest.Start(t)
	storetest.Run(t, func(t *testing.T) store.Backend { return openDB(t, srv.URI()) },
		storetest.Caps{Name: "ferretdb", Concurrent: false, ConcurrentSkipReason: ferretSkip})
}

func TestContractMongoDB(t *testing.T) {
	uri := os.Getenv(mongotest.EnvURI)
	if uri == "" {
		t.Skip("set " + mongotest.EnvURI + " to run the contract suite against a real MongoDB")
	}
	storetest.Run(t, func(t *testing.T) store.Backend { return openDB(t, uri) },
		storetest.Caps{Name: "mongodb", Concurrent: true, Parallel: true})
}
