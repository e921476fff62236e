package check

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// FuzzDecodeBucket: whatever bytes a store hands back, the read path
// (bucket.DecodeBucket) and check (Inspect) return instead of panicking, and
// a decoded bucket always has its 100 positions with consecutive seqs.
// Seeds: the malformed catalogue, a clean bucket, and broken BSON.
func FuzzDecodeBucket(f *testing.F) {
	f.Add([]byte(raw(cleanBucket())))
	for _, c := range catalogue() {
		if c.kind == bucket.KindContentSize {
			continue // a megabyte seed slows every fuzz iteration
		}
		f.Add([]byte(raw(c.doc)))
	}
	f.Add(truncated(bucketDoc("s:0", cleanSlots()), "s:0"))
	f.Add([]byte{})
	f.Add([]byte{5, 0, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f, 0x03, 'm', 's', 'g', 's', 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		b := bucket.DecodeBucket(bson.Raw(data))
		for i := 1; i < len(b.Slots); i++ {
			if b.Slots[i].Seq != b.Slots[i-1].Seq+1 {
				t.Fatalf("slot %d holds seq %d after %d", i, b.Slots[i].Seq, b.Slots[i-1].Seq)
			}
		}
		d := Inspect(bson.Raw(data))
		if d.Slots < 0 || d.Messages > bucket.BucketSize {
			t.Fatalf("counted %d slots, %d messages", d.Slots, d.Messages)
		}
	})
}

// FuzzCheckSlot aims the mutations at one slot document, where CheckSlot
// walks raw bytes itself: it must return, not panic, for any bytes.
func FuzzCheckSlot(f *testing.F) {
	for _, s := range cleanSlots()[:8] {
		f.Add([]byte(raw(s.(bson.D))))
	}
	f.Add([]byte(raw(emptySlot())))
	f.Add([]byte(raw(with(emptySlot(), "del_list", bson.A{"u", int32(1)}))))
	f.Fuzz(func(t *testing.T, data []byte) {
		v := bson.RawValue{Type: bson.TypeEmbeddedDocument, Value: data}
		for _, p := range bucket.CheckSlot(v, 1) {
			if p.Kind == "" || p.Reason == "" {
				t.Fatalf("problem without kind or reason: %+v", p)
			}
		}
	})
}
