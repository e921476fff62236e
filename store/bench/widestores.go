package bench

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// wideBoltBucket holds the wide buckets keyed by doc_id.
var wideBoltBucket = []byte("msg_wide")

// WideBolt is the bench-only wide layout in a bbolt file of its own.
type WideBolt struct {
	largest
	db   *countedBolt
	path string
}

// OpenWideBolt creates the wide layout at path, with the embedded store's
// bbolt options.
func OpenWideBolt(path string, noSync bool) (*WideBolt, error) {
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: time.Second, NoSync: noSync,
		FreelistType: bbolt.FreelistMapType})
	if err != nil {
		return nil, fmt.Errorf("wide store %s: %w", path, err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(wideBoltBucket)
		return err
	})
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("wide store %s: %w", path, err)
	}
	return &WideBolt{db: &countedBolt{DB: db}, path: path}, nil
}

// Insert writes doc in one transaction.
func (w *WideBolt) Insert(_ context.Context, doc *bucket.Doc) error {
	raw, err := bson.Marshal(doc)
	if err != nil {
		return err
	}
	w.saw(len(raw))
	return w.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(wideBoltBucket)
		if b.Get([]byte(doc.DocID)) != nil {
			return fmt.Errorf("%s: %w", doc.DocID, store.ErrDuplicateKey)
		}
		return b.Put([]byte(doc.DocID), raw)
	})
}

// Get looks each doc_id up in one read transaction.
func (w *WideBolt) Get(_ context.Context, docIDs []string) ([]bson.Raw, error) {
	var out []bson.Raw
	err := w.db.View(func(tx *bbolt.Tx) error {
		b := tx.Bucket(wideBoltBucket)
		for _, id := range docIDs {
			if v := b.Get([]byte(id)); v != nil {
				out = append(out, bytes.Clone(v))
			}
		}
		return nil
	})
	return out, err
}

// Storage counts the documents and their bytes, and the file's size.
func (w *WideBolt) Storage(context.Context) (Storage, error) {
	var st Storage
	var data int64
	err := w.db.View(func(tx *bbolt.Tx) error {
		return tx.Bucket(wideBoltBucket).ForEach(func(_, v []byte) error {
			st.Documents++
			data += int64(len(v))
			return nil
		})
	})
	if err != nil {
		return st, err
	}
	st.IndexEntries = st.Documents
	st.DataBytes = &data
	big := w.largest.bytes
	st.LargestDocument = &big
	st.FileBytes, err = fileSize(w.path)
	return st, err
}

// RoundTrips is the number of transactions so far.
func (w *WideBolt) RoundTrips() int64 { return w.db.RoundTrips() }

// Close closes the file.
func (w *WideBolt) Close(context.Context) error { return w.db.Close() }

// wideCollection is the wide layout's collection in the scratch database.
const wideCollection = "msg_wide"

// WideMongo is the bench-only wide layout as a MongoDB collection with a
// unique index on doc_id, as msg has.
type WideMongo struct {
	largest
	coll *mongo.Collection
	sent *commandsSent
}

// openWideMongo uses collection msg_wide of db and creates its index; sent
// counts the commands db's client sends.
func openWideMongo(ctx context.Context, db *mongo.Database, sent *commandsSent) (*WideMongo, error) {
	w := &WideMongo{coll: db.Collection(wideCollection), sent: sent}
	_, err := w.coll.Indexes().CreateOne(ctx, mongo.IndexModel{
		Keys: bson.D{{Key: "doc_id", Value: 1}}, Options: options.Index().SetUnique(true).SetName("doc_id"),
	})
	if err != nil {
		return nil, fmt.Errorf("wide layout index: %w", err)
	}
	return w, nil
}

// Insert is one InsertOne of the whole bucket.
func (w *WideMongo) Insert(ctx context.Context, doc *bucket.Doc) error {
	raw, err := bson.Marshal(doc)
	if err != nil {
		return err
	}
	w.saw(len(raw))
	_, err = w.coll.InsertOne(ctx, bson.Raw(raw))
	if mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("%w: %v", store.ErrDuplicateKey, err)
	}
	return err
}

// Get is find({doc_id: {$in: ids}}), draining the cursor.
func (w *WideMongo) Get(ctx context.Context, docIDs []string) ([]bson.Raw, error) {
	return drain(ctx, w.coll, bson.D{{Key: "doc_id", Value: bson.D{{Key: "$in", Value: docIDs}}}}, options.Find())
}

// RoundTrips is the number of commands sent to msg_wide so far.
func (w *WideMongo) RoundTrips() int64 { return w.sent.to(wideCollection) }

// Storage reads collStats, with the largest document written.
func (w *WideMongo) Storage(ctx context.Context) (Storage, error) {
	st, err := collStorage(ctx, w.coll.Database(), wideCollection)
	big := w.largest.bytes
	st.LargestDocument = &big
	return st, err
}

// Close does nothing: the scratch database is dropped by Run.
func (w *WideMongo) Close(context.Context) error { return nil }

var (
	_ WideStore = (*WideBolt)(nil)
	_ WideStore = (*WideMongo)(nil)
)
