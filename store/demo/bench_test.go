package demo

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
)

// The figures of the issue: seeding the default demo dataset, and a bucket
// read and a single write on the embedded store with it loaded.
//
//	go test ./store/demo -run '^$' -bench . -benchtime 1x   (seed)
//	go test ./store/demo -run '^$' -bench 'Read|Revoke'

func BenchmarkSeedDefault(b *testing.B) {
	for b.Loop() {
		bk, err := embedded.Open(filepath.Join(b.TempDir(), "demo.db"), embedded.Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		st := store.New(bk, store.Options{})
		if _, err := Seed(context.Background(), st, Options{Seed: 1}, nil); err != nil {
			b.Fatal(err)
		}
		_ = st.Close(context.Background())
	}
}

// seededDefault opens a durable (fsync on write) store holding the default dataset.
func seededDefault(b *testing.B) *store.Store {
	path := filepath.Join(b.TempDir(), "demo.db")
	bk, err := embedded.Open(path, embedded.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := Seed(context.Background(), store.New(bk, store.Options{}), Options{Seed: 1}, nil); err != nil {
		b.Fatal(err)
	}
	_ = bk.Close(context.Background())
	if bk, err = embedded.Open(path, embedded.Options{}); err != nil {
		b.Fatal(err)
	}
	st := store.New(bk, store.Options{})
	b.Cleanup(func() { _ = st.Close(context.Background()) })
	return st
}

func BenchmarkBucketRead(b *testing.B) {
	st := seededDefault(b)
	ctx := context.Background()
	last := bucket.BucketIndex(DefaultLongMessages)
	i := int64(0)
	for b.Loop() {
		if _, err := st.Buckets(ctx, LongGroupID, []int64{i % last}, 0); err != nil {
			b.Fatal(err)
		}
		i += 97
	}
}

func BenchmarkRevoke(b *testing.B) {
	st := seededDefault(b)
	ctx := context.Background()
	seq := int64(1)
	for b.Loop() {
		if _, err := st.Revoke(ctx, LongGroupID, []int64{seq}, bucket.Revoke{UserID: "omar", Role: bucket.RoleOwner,
			Nickname: "Omar Haddad", Time: baseTime}); err != nil {
			b.Fatal(err)
		}
		seq = seq%DefaultLongMessages + 1
	}
}

// BenchmarkFindBucketRaw is the backend's share of a bucket read: the bbolt
// lookup and copy, without decoding.
func BenchmarkFindBucketRaw(b *testing.B) {
	st := seededDefault(b)
	ctx := context.Background()
	last := bucket.BucketIndex(DefaultLongMessages)
	i := int64(0)
	for b.Loop() {
		if _, err := st.Backend().FindBuckets(ctx, []string{bucket.DocID(LongGroupID, i%last)}); err != nil {
			b.Fatal(err)
		}
		i += 97
	}
}

// BenchmarkSeedLong seeds a long group of 200,000 messages (the issue's
// seed --long figure, scaled down) and reports messages per second.
//
//	go test ./store/demo -run '^$' -bench SeedLong -benchtime 1x -benchmem
func BenchmarkSeedLong(b *testing.B) {
	const long = 200_000
	for b.Loop() {
		bk, err := embedded.Open(filepath.Join(b.TempDir(), "demo.db"), embedded.Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		st := store.New(bk, store.Options{})
		sum, err := Seed(context.Background(), st, Options{Seed: 1, LongMessages: long}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := st.Close(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(sum.Messages)/b.Elapsed().Seconds(), "msgs/s")
	}
}
