package check

import (
	"testing"

	"github.com/chatlens/chatlens/store/bucket"
)

// BenchmarkDecodeBucket is the read path's cost for one full bucket,
// slot validation included.
func BenchmarkDecodeBucket(b *testing.B) {
	doc := raw(cleanBucket())
	for b.Loop() {
		bucket.DecodeBucket(doc)
	}
}

// BenchmarkInspect is check's cost for one full bucket.
func BenchmarkInspect(b *testing.B) {
	doc := raw(cleanBucket())
	for b.Loop() {
		Inspect(doc)
	}
}
