package embedded_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/storetest"
)

func openShared(t *testing.T, path string) *embedded.Backend {
	t.Helper()
	b, err := embedded.Open(path, embedded.Options{NoSync: true, Shared: true, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(t.Context()) })
	return b
}

// The whole contract holds for a store opened shared.
func TestContractShared(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Backend { return openShared(t, filepath.Join(t.TempDir(), "chatlens.db")) },
		storetest.Caps{Concurrent: true, Name: "embedded-shared", Parallel: true})
}

// Two shared opens of one file (bbolt locks per open file, so they stand
// for two processes) both read and write it, each sees the other's write on
// its next read, and an exclusive open is refused only while it would wait
// on nobody: when neither is in a transaction it gets the file.
func TestSharedOpensTakeTurns(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "chatlens.db")
	ui, other := openShared(t, path), openShared(t, path)
	if raws, err := ui.FindBuckets(ctx, []string{"sg_g1:0"}); err != nil || len(raws) != 0 {
		t.Fatalf("first read: %d documents, %v", len(raws), err)
	}
	if _, err := store.New(other, store.Options{}).InsertMessages(ctx, "sg_g1", 1,
		[]*bucket.MsgData{{SendID: "u1", Content: "from the other process", SendTime: 1}}); err != nil {
		t.Fatalf("write beside an open store: %v", err)
	}
	raws, err := ui.FindBuckets(ctx, []string{"sg_g1:0"})
	if err != nil || len(raws) != 1 {
		t.Fatalf("next read after the other's write: %d documents, %v", len(raws), err)
	}
	if got := bucket.DecodeBucket(raws[0]).Slots[0].Slot.Msg.Content; got != "from the other process" {
		t.Errorf("content = %q", got)
	}
	if _, err := store.New(ui, store.Options{}).Revoke(ctx, "sg_g1", []int64{1}, bucket.Revoke{UserID: "u1"}); err != nil {
		t.Fatalf("write back: %v", err)
	}
	raws, err = other.FindBuckets(ctx, []string{"sg_g1:0"})
	if err != nil || len(raws) != 1 || bucket.DecodeBucket(raws[0]).Slots[0].Slot.Revoke == nil {
		t.Fatalf("the other does not see the revoke: %v", err)
	}
	excl, err := embedded.Open(path, embedded.Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("exclusive open while both shared opens are idle: %v", err)
	}
	if _, err := ui.FindBuckets(ctx, []string{"sg_g1:0"}); err == nil || !strings.Contains(err.Error(), "in use by another process") {
		t.Errorf("read while another holds the file for itself = %v, want an in-use error", err)
	}
	_ = excl.Close(ctx)
	if _, err := ui.FindBuckets(ctx, []string{"sg_g1:0"}); err != nil {
		t.Errorf("read after the exclusive holder left: %v", err)
	}
}

// A shared read-only open reads and refuses every write.
func TestSharedReadOnlyRefusesWrites(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "chatlens.db")
	w := openShared(t, path)
	if _, err := store.New(w, store.Options{}).InsertMessages(ctx, "sg_g1", 1, []*bucket.MsgData{{SendID: "u1", SendTime: 1}}); err != nil {
		t.Fatal(err)
	}
	ro, err := embedded.Open(path, embedded.Options{ReadOnly: true, Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close(ctx)
	if raws, err := ro.FindBuckets(ctx, []string{"sg_g1:0"}); err != nil || len(raws) != 1 {
		t.Fatalf("read-only shared read: %d, %v", len(raws), err)
	}
	if _, err := ro.SetSlotField(ctx, "sg_g1:0", 0, store.FieldRevoke, &bucket.Revoke{}); err == nil {
		t.Error("a write through a read-only shared open succeeded")
	}
}
