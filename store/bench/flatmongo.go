package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/chatlens/chatlens/store"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// flatCollection is the flat layout's collection in the scratch database.
const flatCollection = "msg_flat"

// FlatMongo is the flat layout as a MongoDB collection with a unique index
// on (conversation_id, seq).
type FlatMongo struct {
	coll *mongo.Collection
	sent *commandsSent
}

// openFlatMongo uses collection msg_flat of db and creates its index; sent
// counts the commands db's client sends.
func openFlatMongo(ctx context.Context, db *mongo.Database, sent *commandsSent) (*FlatMongo, error) {
	f := &FlatMongo{coll: db.Collection(flatCollection), sent: sent}
	_, err := f.coll.Indexes().CreateOne(ctx, mongo.IndexModel{
		Keys:    bson.D{{Key: "conversation_id", Value: 1}, {Key: "seq", Value: 1}},
		Options: options.Index().SetUnique(true).SetName("conversation_id_seq"),
	})
	if err != nil {
		return nil, fmt.Errorf("flat layout index: %w", err)
	}
	return f, nil
}

// Insert is one InsertMany.
func (f *FlatMongo) Insert(ctx context.Context, docs []*FlatDoc) error {
	_, err := f.coll.InsertMany(ctx, docs)
	if mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("%w: %v", store.ErrDuplicateKey, err)
	}
	return err
}

// Range is find({conversation_id, seq: {$gte, $lte}}).sort({seq: 1}).
func (f *FlatMongo) Range(ctx context.Context, cid string, from, to int64) ([]bson.Raw, error) {
	filter := bson.D{{Key: "conversation_id", Value: cid},
		{Key: "seq", Value: bson.D{{Key: "$gte", Value: from}, {Key: "$lte", Value: to}}}}
	return f.find(ctx, filter, options.Find().SetSort(bson.D{{Key: "seq", Value: 1}}))
}

// Before is find({conversation_id, seq: {$lt}}).sort({seq: -1}).limit(n).
func (f *FlatMongo) Before(ctx context.Context, cid string, before int64, limit int) ([]bson.Raw, error) {
	filter := bson.D{{Key: "conversation_id", Value: cid}, {Key: "seq", Value: bson.D{{Key: "$lt", Value: before}}}}
	return f.find(ctx, filter, options.Find().SetSort(bson.D{{Key: "seq", Value: -1}}).SetLimit(int64(limit)))
}

// Get is find({conversation_id, seq: {$in: seqs}}).
func (f *FlatMongo) Get(ctx context.Context, cid string, seqs []int64) ([]bson.Raw, error) {
	filter := bson.D{{Key: "conversation_id", Value: cid}, {Key: "seq", Value: bson.D{{Key: "$in", Value: seqs}}}}
	return f.find(ctx, filter, options.Find())
}

// find runs one query and drains its cursor (a getMore for each further
// batch).
func (f *FlatMongo) find(ctx context.Context, filter bson.D, opts *options.FindOptionsBuilder) ([]bson.Raw, error) {
	return drain(ctx, f.coll, filter, opts)
}

// drain runs find on coll and copies out every document of its cursor.
func drain(ctx context.Context, coll *mongo.Collection, filter bson.D, opts *options.FindOptionsBuilder) ([]bson.Raw, error) {
	cur, err := coll.Find(ctx, filter, opts)
	if err != nil {
		return nil, err
	}
	defer cur.Close(ctx)
	var out []bson.Raw
	for cur.Next(ctx) {
		out = append(out, bytes.Clone(cur.Current))
	}
	return out, cur.Err()
}

// RoundTrips is the number of commands sent to msg_flat so far.
func (f *FlatMongo) RoundTrips() int64 { return f.sent.to(flatCollection) }

// Storage reads collStats; a server without it leaves the sizes nil.
func (f *FlatMongo) Storage(ctx context.Context) (Storage, error) {
	return collStorage(ctx, f.coll.Database(), flatCollection)
}

// Close does nothing: the scratch database is dropped by Run.
func (f *FlatMongo) Close(context.Context) error { return nil }

var _ FlatStore = (*FlatMongo)(nil)

// collStorage reads document count, data, storage and index sizes of coll
// with the collStats command (portable to FerretDB, unlike $collStats).
// A server that does not answer leaves the sizes nil and counts documents.
func collStorage(ctx context.Context, db *mongo.Database, coll string) (Storage, error) {
	var st Storage
	raw, err := db.RunCommand(ctx, bson.D{{Key: "collStats", Value: coll}}).Raw()
	if err == nil {
		st.Documents, _ = number(raw, "count")
		nindexes, ok := number(raw, "nindexes")
		if !ok {
			nindexes = 2 // _id and the layout's unique index
		}
		st.IndexEntries = st.Documents * nindexes
		st.DataBytes = optional(number(raw, "size"))
		st.StorageBytes = optional(number(raw, "storageSize"))
		st.IndexBytes = optional(number(raw, "totalIndexSize"))
		return st, nil
	}
	n, cerr := db.Collection(coll).EstimatedDocumentCount(ctx)
	if cerr != nil {
		return st, errors.Join(err, cerr)
	}
	st.Documents, st.IndexEntries = n, 2*n
	return st, nil
}

// number reads a numeric field whatever its BSON type.
func number(raw bson.Raw, key string) (int64, bool) {
	v, err := raw.LookupErr(key)
	if err != nil {
		return 0, false
	}
	switch v.Type {
	case bson.TypeInt32:
		return int64(v.Int32()), true
	case bson.TypeInt64:
		return v.Int64(), true
	case bson.TypeDouble:
		return int64(v.Double()), true
	}
	return 0, false
}

func optional(n int64, ok bool) *int64 {
	if !ok {
		return nil
	}
	return &n
}
