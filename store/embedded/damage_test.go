package embedded_test

import (
	"encoding/binary"
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

// A store whose first meta page is zeroed opens from the second, as bbolt
// itself does (its getPageSizeFromSecondMeta), every document readable;
// with both meta pages gone it is called damaged, with how to recover, not
// "not a chatlens store".
func TestOpenFallsBackToTheSecondMetaPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chatlens.db")
	b, err := embedded.Open(path, embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	var docs []bson.Raw
	for i := range 50 {
		doc, _ := bson.Marshal(bson.D{{Key: "doc_id", Value: fmt.Sprintf("sg_g:%d", i)}})
		docs = append(docs, doc)
	}
	if _, err := b.InsertRaw(t.Context(), bucket.CollMsg, docs, store.RawInsert); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	zero := func(from, n int64) {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteAt(make([]byte, n), from); err != nil {
			t.Fatal(err)
		}
	}
	page := int64(os.Getpagesize())
	zero(0, page)
	for _, readOnly := range []bool{true, false} {
		b, err := embedded.Open(path, embedded.Options{ReadOnly: readOnly})
		if err != nil {
			t.Fatalf("open (read-only %v) with meta page 0 zeroed: %v", readOnly, err)
		}
		n := 0
		if err := b.ScanRaw(t.Context(), bucket.CollMsg, "", func(bson.Raw) error { n++; return nil }); err != nil || n != len(docs) {
			t.Errorf("read %d documents (%v), want %d", n, err, len(docs))
		}
		_ = b.Close(t.Context())
	}
	// Both meta pages unreadable (the writable open may have rewritten page
	// 0): the second keeps bbolt's magic, so the file is still known as one.
	zero(0, 2*page)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	binary.NativeEndian.PutUint32(raw[page+16:], 0xED0CDAED)
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = embedded.Open(path, embedded.Options{ReadOnly: true})
	if !errors.Is(err, embedded.ErrDamaged) || strings.Contains(err.Error(), "not a chatlens store") || !strings.Contains(err.Error(), "restore it from a copy") {
		t.Errorf("open with both meta pages gone: %v, want damaged and how to recover", err)
	}
}

// A store file cut short while open (a backup copied over it under a
// running UI) crashed the process with SIGBUS on the next read: bbolt
// reads it through a memory map. Each read and write says what Open says
// of such a file instead, in one line, on a handle kept open or opened
// for each transaction.
func TestFileCutWhileOpenIsAnErrorNotACrash(t *testing.T) {
	for _, shared := range []bool{false, true} {
		t.Run(fmt.Sprintf("shared=%v", shared), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "chatlens.db")
			b, err := embedded.Open(path, embedded.Options{NoSync: true, Shared: shared})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close(t.Context())
			var docs []bson.Raw
			for i := range 400 {
				doc, _ := bson.Marshal(bson.D{{Key: "doc_id", Value: fmt.Sprintf("sg_g:%d", i)}, {Key: "pad", Value: strings.Repeat("x", 2000)}})
				docs = append(docs, doc)
			}
			if _, err := b.InsertRaw(t.Context(), bucket.CollMsg, docs, store.RawInsert); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
			cutShort := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, embedded.ErrDamaged) || !strings.Contains(err.Error(), "cut short") || strings.Contains(err.Error(), "\n") {
					t.Errorf("%s of the cut file: %v, want one line saying it is damaged, cut short", what, err)
				}
			}
			cutShort("read", b.ScanRaw(t.Context(), bucket.CollMsg, "", func(bson.Raw) error { return nil }))
			cutShort("write", b.InsertBucket(t.Context(), bucket.NewDoc("sg_h:0")))
			_, err = b.FindBuckets(t.Context(), []string{"sg_g:399"})
			cutShort("second read", err)
		})
	}
}
