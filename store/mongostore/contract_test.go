package mongostore_test

import (
	"os"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/storetest"
)

const ferretSkip = "FerretDB v1 loses concurrent updates to one document (read-modify-write without a lock)"

func TestContractFerretDB(t *testing.T) {
	// Parallel, and first of the package's parallel tests (this file sorts
	// before theirs), so the fault tests, which mostly wait, run beside it.
	t.Parallel()
	srv := mongotest.Start(t)
	storetest.Run(t, func(t *testing.T) store.Backend { return openDB(t, srv.URI()) },
		storetest.Caps{Name: "ferretdb", Concurrent: false, ConcurrentSkipReason: ferretSkip, ScansEveryRead: true})
}

func TestContractMongoDB(t *testing.T) {
	uri := os.Getenv(mongotest.EnvURI)
	if uri == "" {
		t.Skip("set " + mongotest.EnvURI + " to run the contract suite against a real MongoDB")
	}
	storetest.Run(t, func(t *testing.T) store.Backend { return openDB(t, uri) },
		storetest.Caps{Name: "mongodb", Concurrent: true, Parallel: true})
}
