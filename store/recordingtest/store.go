package recordingtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/testkit"
	"github.com/chatlens/chatlens/store/transfer"
)

// Store is an embedded store of its own holding the collections of the
// recorded run of OpenIM Server, imported as stored.
func Store(t *testing.T) *store.Store {
	t.Helper()
	dir := Dir(t, OpenIM)
	b := testkit.TempBackend(t)
	for _, coll := range bucket.Collections {
		f, err := os.Open(filepath.Join(dir, coll+".json"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = transfer.Import(t.Context(), b, coll, f, store.RawUpsert, transfer.Hooks{})
		f.Close()
		if err != nil {
			t.Fatalf("import %s: %v", coll, err)
		}
	}
	return store.New(b, store.Options{})
}
