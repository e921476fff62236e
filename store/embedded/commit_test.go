package embedded

import (
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// TestStoreWriteIsOneCommit: the state machine's calls of one write (the
// missed update, the insert of the new bucket, raising max_seq) share one
// bbolt commit on a durable exclusive store, so a batch costs one pair of
// fsyncs as the flat layout's single transaction does, and the write is
// committed when InsertMessages returns.
func TestStoreWriteIsOneCommit(t *testing.T) {
	ctx := t.Context()
	b, err := Open(filepath.Join(t.TempDir(), "durable.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(ctx)
	lastCommit := func() (id int) {
		if err := b.db.exclusive.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil }); err != nil {
			t.Fatal(err)
		}
		return id
	}
	// A decorator embedding the backend (as the UI's read counter does)
	// must end each write the same way: Flush is part of store.Backend.
	decorated := struct{ store.Backend }{b}
	for cid, backend := range map[string]store.Backend{"sg_g": b, "sg_decorated": decorated} {
		st := store.New(backend, store.Options{})
		for batch := range int64(3) {
			before := lastCommit()
			first := bucket.FirstSeq(batch)
			msgs := make([]*bucket.MsgData, bucket.BucketSize)
			for i := range msgs {
				msgs[i] = &bucket.MsgData{SendID: "u1", Content: "hi", SendTime: first + int64(i)}
			}
			if _, err := st.InsertMessages(ctx, cid, first, msgs); err != nil {
				t.Fatal(err)
			}
			if commits := lastCommit() - before; commits != 1 {
				t.Fatalf("%s batch %d: %d commits, want 1", cid, batch, commits)
			}
		}
	}
}
