package mongostore

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// InsertBuckets: ordered insertMany(docs), RawBatch documents a request.
// Ordered, the server stops at the first document it refuses, so the
// index of that write error is how many went before it.
func (b *msgWrites) InsertBuckets(ctx context.Context, docs []*bucket.Doc) (int, error) {
	for start := 0; start < len(docs); start += RawBatch {
		batch := make([]any, 0, min(RawBatch, len(docs)-start))
		for _, d := range docs[start:min(start+RawBatch, len(docs))] {
			batch = append(batch, d)
		}
		err := b.run(ctx, func(ctx context.Context) error {
			_, err := b.coll(bucket.CollMsg).InsertMany(ctx, batch, options.InsertMany().SetOrdered(true))
			return err
		})
		if err == nil {
			continue
		}
		var bwe mongo.BulkWriteException
		if !errors.As(err, &bwe) || len(bwe.WriteErrors) == 0 {
			return start, b.wrapWrite("insert", bucket.CollMsg, err)
		}
		first := bwe.WriteErrors[0]
		for _, we := range bwe.WriteErrors[1:] {
			if we.Index < first.Index {
				first = we
			}
		}
		if first.Code == codeDuplicateKey {
			return start + first.Index, store.ErrDuplicateKey
		}
		return start + first.Index, b.wrapWrite("insert", bucket.CollMsg, err)
	}
	return len(docs), nil
}

// RaiseMaxSeqs: one unordered bulk write of RaiseMaxSeq's $max upserts.
// Those the unique _id index refused (a writer racing to store the same
// conversation's first seq document, see raise) are sent again, once:
// they then update the document stored.
func (b *seqs) RaiseMaxSeqs(ctx context.Context, raises []store.SeqRaise) error {
	if len(raises) == 0 {
		return nil
	}
	models := make([]mongo.WriteModel, len(raises))
	for i, r := range raises {
		q := raiseMaxSeq(r.Cid, r.MaxSeq)
		models[i] = mongo.NewUpdateOneModel().SetFilter(q.filter).SetUpdate(q.update).SetUpsert(q.upsert)
	}
	var err error
	for range 2 {
		err = b.run(ctx, func(ctx context.Context) error {
			_, err := b.coll(bucket.CollSeq).BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
			return err
		})
		if models = refusedAsDuplicates(err, models); models == nil {
			break
		}
	}
	return b.wrapWrite("update", bucket.CollSeq, err)
}

// refusedAsDuplicates is the models of a bulk write that failed only on
// duplicate keys; nil when it failed otherwise or not at all.
func refusedAsDuplicates(err error, models []mongo.WriteModel) []mongo.WriteModel {
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) || len(bwe.WriteErrors) == 0 || bwe.WriteConcernError != nil {
		return nil
	}
	var again []mongo.WriteModel
	for _, we := range bwe.WriteErrors {
		if we.Code != codeDuplicateKey {
			return nil
		}
		again = append(again, models[we.Index])
	}
	return again
}
