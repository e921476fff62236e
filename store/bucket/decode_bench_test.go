package bucket_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/chatlens/chatlens/store/bucket"
)

// The read path's cost for one full bucket: every read of a window decodes
// whole buckets, so this is what a scroll pays per 100 messages.
//
//	go test ./store -run '^$' -bench 'DecodeBucket|CheckSlot' -count 3
func BenchmarkDecodeBucket(b *testing.B) {
	demoRaw := fullestDemoBucket(b)
	for _, bc := range []struct {
		name string
		raw  bson.Raw
	}{
		{"demo", demoRaw}, // as the demo dataset stores it
		{"production", withProductionExtras(b, demoRaw)}, // plus options, @ lists, push blocks
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.raw)))
			b.ReportAllocs()
			for b.Loop() {
				bucket.DecodeBucket(bc.raw)
			}
		})
	}
}

// BenchmarkCheckSlot is check's cost per slot, over every slot of a full
// production-shaped bucket.
func BenchmarkCheckSlot(b *testing.B) {
	raw := withProductionExtras(b, fullestDemoBucket(b))
	elems, err := raw.Lookup("msgs").Array().Values()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		bucket.CheckSlot(elems[i%len(elems)], int64(i%len(elems))+1)
		i++
	}
}

// BenchmarkDecodeSlots is the decoding a single read pays: one slot of a
// full production-shaped bucket, from the bucket cut to that slot (what
// FindSlots returns where the backend projects) and from the whole bucket
// (a server without the projection), against DecodeBucket of it all.
//
//	go test ./store -run '^$' -bench 'DecodeSlots|DecodeBucket/production' -benchmem -count 5
func BenchmarkDecodeSlots(b *testing.B) {
	raw := withProductionExtras(b, fullestDemoBucket(b))
	elems, err := raw.Lookup("msgs").Array().Values()
	if err != nil {
		b.Fatal(err)
	}
	const at = 42
	one := bson.Raw(bsoncore.NewDocumentBuilder().
		AppendArray("msgs", bsoncore.NewArrayBuilder().AppendDocument(elems[at].Value).Build()).Build())
	b.Run("one-of-cut-bucket", func(b *testing.B) {
		b.SetBytes(int64(len(one)))
		b.ReportAllocs()
		for b.Loop() {
			bucket.DecodeSlots(one, true, 0, at, 1)
		}
	})
	b.Run("one-of-whole-bucket", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			bucket.DecodeSlots(raw, false, 0, at, 1)
		}
	})
}
