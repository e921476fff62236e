package embedded_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
)

// A store file cut short is refused at Open as damaged, read-only or not:
// reading its missing pages through the memory map would crash the process.
func TestOpenRefusesATruncatedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chatlens.db")
	b, err := embedded.Open(path, embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	var docs []bson.Raw
	for i := range 400 {
		doc, _ := bson.Marshal(bson.D{{Key: "doc_id", Value: fmt.Sprintf("sg_g:%d", i)}, {Key: "pad", Value: strings.Repeat("x", 2000)}})
		docs = append(docs, doc)
	}
	if _, err := b.InsertRaw(t.Context(), bucket.CollMsg, docs, store.RawInsert); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	for _, readOnly := range []bool{true, false} {
		_, err := embedded.Open(path, embedded.Options{ReadOnly: readOnly})
		if !errors.Is(err, embedded.ErrDamaged) || strings.Contains(err.Error(), "\n") {
			t.Errorf("open (read-only %v) of a truncated file: %v, want one line wrapping ErrDamaged", readOnly, err)
		}
	}
	if after, _ := os.Stat(path); after.Size() != fi.Size()/2 {
		t.Errorf("opening the damaged file changed its size to %d", after.Size())
	}
}

// Read-only, an empty file is named for what it is; writable, it is laid
// out as a new store (as a file made by mktemp for an import).
func TestOpenOfAnEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chatlens.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := embedded.Open(path, embedded.Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "empty file (0 bytes)") {
		t.Errorf("read-only open of a 0-byte file: %v", err)
	}
	b, err := embedded.Open(path, embedded.Options{NoSync: true})
	if err != nil {
		t.Fatalf("writable open of a 0-byte file: %v", err)
	}
	_ = b.Close(t.Context())
}
