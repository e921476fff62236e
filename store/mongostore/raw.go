package mongostore

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
)

// RawBatch is how many documents InsertRaw sends in one bulk write.
const RawBatch = 1000

// Answers to a replacement that would change _id: MongoDB refuses it as
// ImmutableField, FerretDB v1 tries an insert and hits the unique key.
const (
	codeImmutableField = 66
	codeDuplicateKey   = 11000
)

// InsertRaw stores docs as given, replacing the stored document with the
// same unique key: one unordered bulk of ReplaceOne upserts per RawBatch
// documents. A document whose stored twin has another _id is replaced by a
// delete and an insert instead, keeping the _id it was given.
func (b *Backend) InsertRaw(ctx context.Context, coll string, docs []bson.Raw) error {
	key := store.UniqueKey(coll)
	for start := 0; start < len(docs); start += RawBatch {
		batch := docs[start:min(start+RawBatch, len(docs))]
		models := make([]mongo.WriteModel, len(batch))
		for i, doc := range batch {
			models[i] = replaceModel(doc, key)
		}
		failed, err := b.bulk(ctx, coll, models)
		if err != nil {
			return err
		}
		if len(failed) > 0 {
			// Ordered, so that each delete runs before its insert.
			var swap []mongo.WriteModel
			for _, i := range failed {
				swap = append(swap, mongo.NewDeleteOneModel().SetFilter(keyFilter(batch[i], key)),
					mongo.NewInsertOneModel().SetDocument(batch[i]))
			}
			err := b.run(ctx, func(ctx context.Context) error {
				_, err := b.coll(coll).BulkWrite(ctx, swap, options.BulkWrite().SetOrdered(true))
				return err
			})
			if err != nil {
				return b.wrapOp("import", coll, err)
			}
		}
	}
	return nil
}

// replaceModel upserts doc on its unique key, on _id when the key is
// incomplete, or inserts it when it has neither.
func replaceModel(doc bson.Raw, key []string) mongo.WriteModel {
	filter := keyFilter(doc, key)
	if filter == nil {
		return mongo.NewInsertOneModel().SetDocument(doc)
	}
	return mongo.NewReplaceOneModel().SetFilter(filter).SetReplacement(doc).SetUpsert(true)
}

func keyFilter(doc bson.Raw, key []string) bson.D {
	var f bson.D
	for _, k := range key {
		v, err := doc.LookupErr(k)
		if err != nil {
			f = nil
			break
		}
		f = append(f, bson.E{Key: k, Value: v})
	}
	if f == nil && (len(key) != 1 || key[0] != "_id") {
		return keyFilter(doc, []string{"_id"})
	}
	return f
}

// bulk runs one unordered bulk write; it returns the indexes of the models
// that failed only because they would have changed _id (or, on FerretDB,
// collided with the document they were meant to replace).
func (b *Backend) bulk(ctx context.Context, coll string, models []mongo.WriteModel) ([]int, error) {
	err := b.run(ctx, func(ctx context.Context) error {
		_, err := b.coll(coll).BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
		return err
	})
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) || bwe.WriteConcernError != nil {
		return nil, b.wrapOp("import", coll, err)
	}
	var failed []int
	for _, we := range bwe.WriteErrors {
		if we.Code != codeImmutableField && we.Code != codeDuplicateKey {
			return nil, b.wrapOp("import", coll, err)
		}
		failed = append(failed, we.Index)
	}
	return failed, nil
}

// ScanRaw calls fn for each document of coll in unique-key order; for msg a
// non-empty prefix limits it to the doc_ids starting with prefix.
func (b *Backend) ScanRaw(ctx context.Context, coll, prefix string, fn func(bson.Raw) error) error {
	filter := bson.D{}
	if coll == store.CollMsg && prefix != "" {
		rng := bson.D{{Key: "$gte", Value: prefix}}
		if end, ok := prefixEnd(prefix); ok {
			rng = append(rng, bson.E{Key: "$lt", Value: end})
		}
		filter = bson.D{{Key: "doc_id", Value: rng}}
	}
	var sort bson.D
	for _, k := range store.UniqueKey(coll) {
		sort = append(sort, bson.E{Key: k, Value: 1})
	}
	return b.scan(ctx, coll, filter, options.Find().SetSort(sort), func(raw bson.Raw) error {
		if len(filter) > 0 && !strings.HasPrefix(str(raw, "doc_id"), prefix) {
			return nil // prefixEnd widened the range past a non-UTF-8 prefix
		}
		return fn(raw)
	})
}

// prefixEnd is the smallest string greater than every string that starts
// with prefix, as valid UTF-8 (the server compares strings bytewise and
// UTF-8 byte order is code point order). ok is false when there is none.
func prefixEnd(prefix string) (string, bool) {
	for prefix != "" {
		r, size := utf8.DecodeLastRuneInString(prefix)
		prefix = prefix[:len(prefix)-size]
		switch {
		case r == utf8.RuneError && size == 1:
			continue // not UTF-8: the server would not store it as a string
		case r == utf8.MaxRune:
			continue
		case r == 0xD7FF:
			return prefix + string(rune(0xE000)), true // skip the surrogates
		}
		return prefix + string(r+1), true
	}
	return "", false
}
