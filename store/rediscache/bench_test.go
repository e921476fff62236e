package rediscache

import (
	"context"
	"testing"
)

// BenchmarkSlotsScreen reads one screen of 100 cached seqs: one pipelined
// round trip of 100 HMGETs plus JSON decoding.
func BenchmarkSlotsScreen(b *testing.B) {
	srv := newServer(b)
	c := openCache(b, srv.addr)
	cid := srv.newCid(b)
	seqs := make([]int64, 100)
	for i := range seqs {
		seqs[i] = int64(i + 1)
		srv.cacheSlot(b, cid, seqs[i], textSlot(seqs[i], "a message of ordinary length, say sixty characters"))
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		got, err := c.Slots(ctx, cid, seqs)
		if err != nil || len(got) != 100 {
			b.Fatalf("%d hits, %v", len(got), err)
		}
	}
}
