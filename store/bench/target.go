package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/mongostore"
)

// session is both layouts opened on one target, and how to undo it.
type session struct {
	buckets  layout // the store's own buckets, or the bench-only wide ones
	flat     *flatLayout
	describe string
	cleanup  func() error
}

func newBucketLayout(b store.Backend, cid string, maxSeq int64, sizeOf func(context.Context) (Storage, error)) *bucketLayout {
	c := NewCounting(b)
	return &bucketLayout{st: store.New(c, store.Options{}), counter: c, cid: cid, maxSeq: maxSeq, sizeOf: sizeOf}
}

// openEmbedded creates two bbolt files in a new temporary directory, one
// per layout, so each file's size is one layout's size.
func openEmbedded(target Target, opts Options) (*session, error) {
	dir, err := newScratchDir(target.TempDir)
	if err != nil {
		return nil, fmt.Errorf("bench: scratch directory: %w", err)
	}
	bucketsPath, flatPath := filepath.Join(dir, "buckets.db"), filepath.Join(dir, "flat.db")
	eb, err := embedded.Open(bucketsPath, embedded.Options{NoSync: target.NoSync, CommitEach: true})
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	fb, err := OpenFlatBolt(flatPath, target.NoSync)
	if err != nil {
		_ = eb.Close(context.Background())
		_ = os.RemoveAll(dir)
		return nil, err
	}
	sizeOf := func(ctx context.Context) (Storage, error) {
		st, err := embeddedStorage(ctx, eb, opts.Conversation)
		if err == nil {
			st.FileBytes, err = fileSize(bucketsPath)
		}
		return st, err
	}
	s := &session{
		buckets:  newBucketLayout(eb, opts.Conversation, int64(opts.Messages), sizeOf),
		flat:     &flatLayout{fs: fb, cid: opts.Conversation},
		describe: "embedded (scratch bbolt files)",
		cleanup: func() error {
			return errors.Join(eb.Close(context.Background()), fb.Close(context.Background()), os.RemoveAll(dir))
		},
	}
	if opts.BucketSize != bucket.BucketSize {
		wb, err := OpenWideBolt(filepath.Join(dir, "wide.db"), target.NoSync)
		if err != nil {
			return nil, errors.Join(err, s.cleanup())
		}
		s.buckets = newWideLayout(wb, opts.Conversation, opts.BucketSize, int64(opts.Messages))
		closeRest := s.cleanup
		s.cleanup = func() error { return errors.Join(wb.Close(context.Background()), closeRest()) }
	}
	return s, nil
}

// embeddedStorage counts the conversation's buckets and their bytes.
func embeddedStorage(ctx context.Context, b store.Backend, cid string) (Storage, error) {
	var st Storage
	var data, big int64
	err := b.ScanRaw(ctx, bucket.CollMsg, cid+":", func(raw bson.Raw) error {
		st.Documents++
		data += int64(len(raw))
		big = max(big, int64(len(raw)))
		return nil
	})
	st.IndexEntries = st.Documents // one B+tree key per bucket
	st.DataBytes = &data
	st.LargestDocument = &big
	return st, err
}

// cleanupTimeout bounds dropping the scratch database, even after Ctrl-C.
const cleanupTimeout = 30 * time.Second

// scratchDatabase is a new database on a deployment: msg through the
// mongostore backend, and a client of our own for what the backend does
// not do (msg_flat, msg_wide, sizes, the drop), whose commands sent counts.
type scratchDatabase struct {
	mb   *mongostore.Backend
	db   *mongo.Database
	sent *commandsSent
}

// openScratchDatabase opens a new scratch database on the deployment at
// uri; cleanup drops it.
func openScratchDatabase(ctx context.Context, uri string) (*scratchDatabase, func() error, error) {
	name, err := scratchName()
	if err != nil {
		return nil, nil, err
	}
	mb, err := mongostore.Open(ctx, uri, name, mongostore.Options{})
	if err != nil {
		return nil, nil, err
	}
	sent := newCommandsSent()
	client, err := mongo.Connect(options.Client().ApplyURI(uri).SetMonitor(sent.monitor()))
	if err != nil {
		_ = mb.Close(context.Background())
		return nil, nil, fmt.Errorf("bench: %s: %w", mb.Describe(), err)
	}
	db := client.Database(name)
	cleanup := func() error {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		var derr error
		if err := db.Drop(cctx); err != nil {
			derr = fmt.Errorf("bench: scratch database %s was not dropped, drop it by hand: %w", name, err)
		}
		return errors.Join(derr, mb.Close(cctx), client.Disconnect(cctx))
	}
	return &scratchDatabase{mb: mb, db: db, sent: sent}, cleanup, nil
}

// openMongo uses a new scratch database on the deployment at target.MongoURI:
// msg through the mongostore backend, msg_flat through a client of our own.
func openMongo(ctx context.Context, target Target, opts Options) (*session, error) {
	sd, cleanup, err := openScratchDatabase(ctx, target.MongoURI)
	if err != nil {
		return nil, err
	}
	mb, db := sd.mb, sd.db
	if err := mb.EnsureIndexes(ctx); err != nil {
		return nil, errors.Join(fmt.Errorf("bench: indexes of msg: %w", err), cleanup())
	}
	fm, err := openFlatMongo(ctx, db, sd.sent)
	if err != nil {
		return nil, errors.Join(err, cleanup())
	}
	sizeOf := func(ctx context.Context) (Storage, error) { return collStorage(ctx, db, bucket.CollMsg) }
	s := &session{
		buckets:  newBucketLayout(mb, opts.Conversation, int64(opts.Messages), sizeOf),
		flat:     &flatLayout{fs: fm, cid: opts.Conversation},
		describe: mb.Describe(),
		cleanup:  cleanup,
	}
	if opts.BucketSize != bucket.BucketSize {
		wm, err := openWideMongo(ctx, db, sd.sent)
		if err != nil {
			return nil, errors.Join(err, cleanup())
		}
		s.buckets = newWideLayout(wm, opts.Conversation, opts.BucketSize, int64(opts.Messages))
	}
	return s, nil
}

// scratchName is a database name no deployment uses: chatlens_bench_<random>.
func scratchName() (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("bench: scratch database name: %w", err)
	}
	return "chatlens_bench_" + hex.EncodeToString(b[:]), nil
}
