package bench

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// BenchmarkSingleRead is one random message of a 100,000-message
// conversation read as the random-reads scenario reads it, on the embedded
// store without fsync: its whole bucket (Store.Buckets, what every single
// read cost before slot reads), its slot only (Store.Slots), and the flat
// layout's document. Each decodes what it read.
//
//	go test ./store/bench -run '^$' -bench SingleRead -benchmem -count 5
func BenchmarkSingleRead(b *testing.B) {
	ctx := context.Background()
	const cid, n = "sg_bench", 100_000
	st := openEmbeddedStore(b)
	fb, err := OpenFlatBolt(filepath.Join(b.TempDir(), "flat.db"), true)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = fb.Close(ctx) })
	for first := int64(1); first <= n; first += 100 {
		msgs := messages(1, cid, first, 100)
		if _, err := st.InsertMessages(ctx, cid, first, msgs); err != nil {
			b.Fatal(err)
		}
		docs := make([]*FlatDoc, len(msgs))
		for i, m := range msgs {
			docs[i] = NewFlatDoc(cid, m)
		}
		if err := fb.Insert(ctx, docs); err != nil {
			b.Fatal(err)
		}
	}
	run := func(name string, read func(seq int64) bool) {
		b.Run(name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			b.ReportAllocs()
			for b.Loop() {
				if !read(1 + r.Int64N(n)) {
					b.Fatal("the message was not read")
				}
			}
		})
	}
	run("bucket-whole", func(seq int64) bool {
		bs, err := st.Buckets(ctx, cid, []int64{bucket.BucketIndex(seq)}, n)
		return err == nil && !bs[0].Slots[bucket.SlotIndex(seq)].IsHole()
	})
	run("bucket-slot", func(seq int64) bool {
		slots, err := st.Slots(ctx, cid, []int64{seq}, n)
		return err == nil && !slots[seq].IsHole()
	})
	run("flat", func(seq int64) bool {
		raws, err := fb.Get(ctx, cid, []int64{seq})
		if err != nil {
			return false
		}
		got, _, err := decodeFlat(raws)
		return err == nil && got == 1
	})
}
