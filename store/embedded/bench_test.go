package embedded

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// The benchmarks share one store of a million messages: 100 conversations of
// 100 full buckets (10,000 buckets), built once per run with InsertBucket and
// NoSync. Run: go test -run '^$' -bench . -benchmem ./store/embedded/

const (
	benchConversations = 100
	benchBuckets       = 100 // per conversation
)

var (
	benchOnce    sync.Once
	benchBackend *Backend
	benchDir     string
	benchErr     error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if benchBackend != nil {
		_ = benchBackend.Close(context.Background())
		_ = os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func benchCid(i int) string { return fmt.Sprintf("sg_group%03d", i) }

// fullBucket is bucket index of cid with all 100 slots holding a message.
func fullBucket(cid string, index int64) *bucket.Doc {
	doc := bucket.NewDoc(bucket.DocID(cid, index))
	for i, slot := range doc.Msgs {
		seq := bucket.FirstSeq(index) + int64(i)
		slot.Msg = &bucket.MsgData{SendID: fmt.Sprintf("user%d", seq%40), GroupID: cid[3:],
			ClientMsgID: fmt.Sprintf("c%s-%d", cid, seq), ServerMsgID: fmt.Sprintf("s%s-%d", cid, seq),
			SenderPlatformID: 1, SenderNickname: "Some User", SessionType: bucket.SessionGroup,
			MsgFrom: bucket.MsgFromUser, ContentType: 101, Content: fmt.Sprintf(`{"content":"message number %d of the benchmark"}`, seq),
			Seq: seq, SendTime: 1700000000000 + seq, CreateTime: 1700000000000 + seq, Status: bucket.StatusSent,
			Options: map[string]bool{}, AtUserIDList: []string{}}
	}
	return doc
}

// benchStore builds (once) and returns the shared million-message store.
func benchStore(b *testing.B) *Backend {
	benchOnce.Do(func() {
		if benchDir, benchErr = os.MkdirTemp("", "chatlens-bench-"); benchErr != nil {
			return
		}
		benchBackend, benchErr = Open(filepath.Join(benchDir, "bench.db"), Options{NoSync: true, CommitEach: true})
		if benchErr != nil {
			return
		}
		ctx := context.Background()
		for c := range benchConversations {
			for i := range int64(benchBuckets) {
				if benchErr = benchBackend.InsertBucket(ctx, fullBucket(benchCid(c), i)); benchErr != nil {
					return
				}
			}
		}
		if st, err := os.Stat(filepath.Join(benchDir, "bench.db")); err == nil {
			fmt.Fprintf(os.Stderr, "bench store: %d buckets, %d messages, %.0f MB\n",
				benchConversations*benchBuckets, benchConversations*benchBuckets*bucket.BucketSize, float64(st.Size())/1e6)
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchBackend
}

// reportCPU adds cpu-ns/op (user+system time of the process, GC included)
// when the benchmark ends; call it after the store is built.
func reportCPU(b *testing.B) {
	start := processCPU()
	if start == 0 {
		return
	}
	b.Cleanup(func() {
		if b.N > 0 {
			b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
		}
	})
}

func randomDocID(r *rand.Rand) string {
	return bucket.DocID(benchCid(r.IntN(benchConversations)), r.Int64N(benchBuckets))
}

func BenchmarkFindBuckets1(b *testing.B) {
	be, r := benchStore(b), rand.New(rand.NewPCG(1, 2))
	reportCPU(b)
	b.ReportAllocs()
	for b.Loop() {
		raws, err := be.FindBuckets(b.Context(), []string{randomDocID(r)})
		if err != nil || len(raws) != 1 {
			b.Fatal(len(raws), err)
		}
	}
}

func BenchmarkFindBuckets16(b *testing.B) {
	be, r := benchStore(b), rand.New(rand.NewPCG(1, 2))
	ids := make([]string, 16)
	reportCPU(b)
	b.ReportAllocs()
	for b.Loop() {
		cid, first := benchCid(r.IntN(benchConversations)), r.Int64N(benchBuckets-16)
		for i := range ids {
			ids[i] = bucket.DocID(cid, first+int64(i))
		}
		raws, err := be.FindBuckets(b.Context(), ids)
		if err != nil || len(raws) != 16 {
			b.Fatal(len(raws), err)
		}
	}
}

// benchWrites runs a write benchmark with and without fsync per transaction.
func benchWrites(b *testing.B, write func(be *Backend, r *rand.Rand) error) {
	b.Helper()
	be := benchStore(b)
	for _, sync := range []bool{false, true} {
		b.Run(map[bool]string{false: "nosync", true: "fsync"}[sync], func(b *testing.B) {
			be.db.exclusive.NoSync = !sync
			defer func() { be.db.exclusive.NoSync = true }()
			r := rand.New(rand.NewPCG(3, 4))
			reportCPU(b)
			b.ReportAllocs()
			for b.Loop() {
				if err := write(be, r); err != nil {
					b.Fatal(err)
				}
				if err := be.Flush(b.Context()); err != nil { // the end of the store's write
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSetSlotField(b *testing.B) {
	benchWrites(b, func(be *Backend, r *rand.Rand) error {
		rev := &bucket.Revoke{Role: 1, UserID: "user1", Nickname: "Some User", Time: 1700000000000}
		matched, err := be.SetSlotField(context.Background(), randomDocID(r), r.IntN(bucket.BucketSize), store.FieldRevoke, rev)
		if err == nil && !matched {
			err = fmt.Errorf("no bucket matched")
		}
		return err
	})
}

// inserted numbers the new buckets across runs, so each insert is new.
var inserted int64

func BenchmarkInsertBucket(b *testing.B) {
	benchWrites(b, func(be *Backend, _ *rand.Rand) error {
		// A full new bucket: the state machine's insert of 100 messages,
		// spread over a few new conversations.
		inserted++
		return be.InsertBucket(context.Background(), fullBucket(fmt.Sprintf("sg_new%d", inserted%7), inserted))
	})
}
