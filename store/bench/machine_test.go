package bench

import (
	"context"
	"path/filepath"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
)

// openEmbeddedStore is a Store on a fresh embedded file. fsync is off: these
// benchmarks measure the state machine and bbolt, not the disk.
func openEmbeddedStore(b *testing.B) *store.Store {
	b.Helper()
	eb, err := embedded.Open(filepath.Join(b.TempDir(), "bench.db"), embedded.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = eb.Close(context.Background()) })
	return store.New(eb, store.Options{})
}

// BenchmarkInsertMessages100 is InsertMessages of one 100-message batch on
// the embedded store: into a new bucket (update misses, one insert, raise
// max seq) and replayed onto the existing bucket (100 $set updates), the
// at-least-once redelivery case.
func BenchmarkInsertMessages100(b *testing.B) {
	ctx := context.Background()
	const cid = "sg_bench"
	b.Run("new-bucket", func(b *testing.B) {
		st := openEmbeddedStore(b)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			first := int64(i)*100 + 1
			b.StopTimer()
			msgs := messages(1, cid, first, 100)
			b.StartTimer()
			if _, err := st.InsertMessages(ctx, cid, first, msgs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("replay-existing-bucket", func(b *testing.B) {
		st := openEmbeddedStore(b)
		msgs := messages(1, cid, 1, 100)
		if _, err := st.InsertMessages(ctx, cid, 1, msgs); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := st.InsertMessages(ctx, cid, 1, msgs); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRevoke is one revoke of a message in a stored bucket: one $set
// of the slot's revoke field.
func BenchmarkRevoke(b *testing.B) {
	ctx := context.Background()
	const cid = "sg_bench"
	st := openEmbeddedStore(b)
	if _, err := st.InsertMessages(ctx, cid, 1, messages(1, cid, 1, 100)); err != nil {
		b.Fatal(err)
	}
	rev := bucket.Revoke{Role: bucket.RoleAdmin, UserID: "user01", Nickname: "User 01", Time: startTime}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.Revoke(ctx, cid, []int64{int64(i%100) + 1}, rev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeBucket is bucket.DecodeBucket of a full bucket: 100
// generated messages, the shape every read path decodes.
func BenchmarkDecodeBucket(b *testing.B) {
	doc := bucket.NewDoc(bucket.DocID("sg_bench", 0))
	for i, m := range messages(1, "sg_bench", 1, bucket.BucketSize) {
		doc.Msgs[i].Msg = m
	}
	raw, err := bson.Marshal(doc)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if bk := bucket.DecodeBucket(raw); bk.LastFilledSeq() != bucket.BucketSize {
			b.Fatalf("decoded bucket ends at seq %d", bk.LastFilledSeq())
		}
	}
}
