package embedded_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
)

// TestGroupedWritesAreReadAtOnceAndKeptByClose: with NoSync, writes share
// commits, yet each is read back as soon as it returns, and Close leaves
// every one of them in the file.
func TestGroupedWritesAreReadAtOnceAndKeptByClose(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "grouped.db")
	b, err := embedded.Open(path, embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	st := store.New(b, store.Options{})
	const n = 7 // buckets: fewer writes than one group holds
	for i := range int64(n) {
		first := bucket.FirstSeq(i)
		msgs := []*bucket.MsgData{{SendID: "u1", Content: "hi", SendTime: first}}
		if _, err := st.InsertMessages(ctx, "sg_g", first, msgs); err != nil {
			t.Fatal(err)
		}
		slots, err := st.Slots(ctx, "sg_g", []int64{first}, first)
		if err != nil || slots[first].IsHole() {
			t.Fatalf("seq %d not read back right after its write (%v)", first, err)
		}
	}
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
	ro, err := embedded.Open(path, embedded.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close(ctx)
	ids, err := ro.BucketIDs(ctx, "sg_g")
	if err != nil || len(ids) != n {
		t.Fatalf("%d buckets after Close (%v), want %d", len(ids), err, n)
	}
	recs, err := ro.SeqRecords(ctx, []string{"sg_g"})
	if err != nil || len(recs) != 1 || recs[0].MaxSeq != bucket.FirstSeq(n-1) {
		t.Fatalf("seq records %+v (%v), want max seq %d", recs, err, bucket.FirstSeq(n-1))
	}
}

// failingFlush is the embedded store whose end-of-write commit fails.
type failingFlush struct{ *embedded.Backend }

func (failingFlush) Flush(context.Context) error { return errors.New("disk full") }

// TestFailedFlushLeavesTheWriteUnknown: when the commit that ends a write
// fails, no seq of it is reported done: every one is unknown, and the
// error says the outcome is unknown.
func TestFailedFlushLeavesTheWriteUnknown(t *testing.T) {
	ctx := t.Context()
	b, err := embedded.Open(filepath.Join(t.TempDir(), "f.db"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(ctx)
	st := store.New(failingFlush{b}, store.Options{})
	res, err := st.InsertMessages(ctx, "sg_g", 1, []*bucket.MsgData{{SendID: "u1", Content: "hi", SendTime: 1}, {SendID: "u1", Content: "ho", SendTime: 2}})
	if !errors.Is(err, store.ErrOutcomeUnknown) {
		t.Fatalf("error %v, want one wrapping ErrOutcomeUnknown", err)
	}
	if len(res.Applied) != 0 || len(res.Unknown) != 2 {
		t.Fatalf("applied %v, unknown %v: want none applied and both unknown", res.Applied, res.Unknown)
	}
}

// TestCommittedFollowsTheGroupCommit: with NoSync a write returns before
// its group is committed, and a commit that fails loses it, so a bulk
// writer counts it as stored only once Committed says so.
func TestCommittedFollowsTheGroupCommit(t *testing.T) {
	ctx := t.Context()
	b, err := embedded.Open(filepath.Join(t.TempDir(), "grouped.db"), embedded.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(ctx)
	_, before := b.Committed()
	for i := range int64(3) {
		if err := b.InsertBucket(ctx, bucket.NewDoc(bucket.DocID("sg_g", i))); err != nil {
			t.Fatal(err)
		}
	}
	written, committed := b.Committed()
	if written != before+3 || committed != before {
		t.Fatalf("after 3 grouped writes: written %d, committed %d; want %d and %d", written, committed, before+3, before)
	}
	if err := b.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if _, committed := b.Committed(); committed != written {
		t.Fatalf("after Sync: committed %d, want %d", committed, written)
	}
}
