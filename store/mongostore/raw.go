package mongostore

import (
	"context"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// RawBatch is how many documents InsertRaw sends in one bulk write.
const RawBatch = 1000

// Answers to a replacement that would change _id: MongoDB refuses it as
// ImmutableField, FerretDB v1 tries an insert and hits the unique key.
const (
	codeImmutableField = 66
	codeDuplicateKey   = 11000
)

// InsertRaw stores docs as given, RawBatch documents per bulk write. Under
// RawUpsert each is a ReplaceOne upsert on its unique key; a document whose
// stored twin has another _id is replaced by a delete and an insert instead,
// keeping the _id it was given. Under RawInsert the stored keys of the batch
// are read first and those documents refused; the unique indexes refuse the
// ones another writer stored in between. On an error the counts say what
// was stored before it.
func (b *rawDocs) InsertRaw(ctx context.Context, coll string, docs []bson.Raw, mode store.RawMode) (store.RawResult, error) {
	var res store.RawResult
	key := bucket.UniqueKey(coll)
	for start := 0; start < len(docs); start += RawBatch {
		batch := docs[start:min(start+RawBatch, len(docs))]
		var err error
		if mode == store.RawUpsert {
			err = b.upsertRaw(ctx, coll, batch, key, &res)
		} else {
			err = b.insertNewRaw(ctx, coll, batch, key, start, &res)
		}
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

func (b *rawDocs) upsertRaw(ctx context.Context, coll string, batch []bson.Raw, key []string, res *store.RawResult) error {
	models := make([]mongo.WriteModel, len(batch))
	for i, doc := range batch {
		models[i] = replaceModel(doc, keyOf(coll, doc, key))
	}
	done, failed, err := b.bulk(ctx, coll, models, codeImmutableField, codeDuplicateKey)
	res.Inserted += int(done.InsertedCount + done.UpsertedCount)
	res.Replaced += int(done.MatchedCount)
	if err != nil || len(failed) == 0 {
		return err
	}
	// Ordered, so that each delete runs before its insert.
	var swap []mongo.WriteModel
	for _, i := range failed {
		swap = append(swap, mongo.NewDeleteOneModel().SetFilter(keyFilter(batch[i], keyOf(coll, batch[i], key))),
			mongo.NewInsertOneModel().SetDocument(batch[i]))
	}
	err = b.run(ctx, func(ctx context.Context) error {
		_, err := b.coll(coll).BulkWrite(ctx, swap, options.BulkWrite().SetOrdered(true))
		return err
	})
	if err != nil {
		return b.wrapOp("import", coll, err)
	}
	res.Replaced += len(failed)
	return nil
}

// insertNewRaw inserts the documents of batch whose key is neither stored
// nor taken by an earlier document; offset is batch's position in the call.
func (b *rawDocs) insertNewRaw(ctx context.Context, coll string, batch []bson.Raw, key []string, offset int, res *store.RawResult) error {
	var or bson.A
	for _, doc := range batch {
		if f := keyFilter(doc, keyOf(coll, doc, key)); f != nil {
			or = append(or, f)
		}
	}
	taken := map[string]bool{}
	if len(or) > 0 {
		err := b.scan(ctx, findQuery{coll: coll, filter: bson.D{{Key: "$or", Value: or}}}, func(raw bson.Raw) error {
			taken[keyString(raw, key, false)] = true
			taken[keyString(raw, key, true)] = true
			return nil
		})
		if err != nil {
			return err
		}
	}
	var models []mongo.WriteModel
	var at []int // position in batch of each model
	for i, doc := range batch {
		byID := bucket.KeyedByID(coll, doc) || keyFilter(doc, key) != nil && !hasKey(doc, key)
		k := keyString(doc, key, byID)
		if k != "" && taken[k] {
			res.Refused = append(res.Refused, offset+i)
			continue
		}
		if k != "" {
			taken[k] = true
		}
		models = append(models, mongo.NewInsertOneModel().SetDocument(doc))
		at = append(at, i)
	}
	if len(models) == 0 {
		return nil
	}
	done, dups, err := b.bulk(ctx, coll, models, codeDuplicateKey)
	res.Inserted += int(done.InsertedCount)
	for _, j := range dups {
		res.Refused = append(res.Refused, offset+at[j])
	}
	slices.Sort(res.Refused)
	return err
}

// keyOf is the key doc of coll is stored under: key, or _id for a
// seq_user document that names one (bucket.KeyedByID).
func keyOf(coll string, doc bson.Raw, key []string) []string {
	if bucket.KeyedByID(coll, doc) {
		return []string{"_id"}
	}
	return key
}

// hasKey tells whether doc holds every field of key.
func hasKey(doc bson.Raw, key []string) bool {
	for _, k := range key {
		if _, err := doc.LookupErr(k); err != nil {
			return false
		}
	}
	return true
}

// keyString is doc's key as comparable text: its key fields, or its _id
// when byID (keyFilter falls back to _id for an incomplete key); "" when
// doc has neither.
func keyString(doc bson.Raw, key []string, byID bool) string {
	if byID {
		key = []string{"_id"}
	}
	var sb strings.Builder
	sb.WriteString(strings.Join(key, ","))
	for _, k := range key {
		v, err := doc.LookupErr(k)
		if err != nil {
			return ""
		}
		sb.WriteByte(byte(v.Type))
		sb.Write(v.Value)
	}
	return sb.String()
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

// bulk runs one unordered bulk write. It returns what was done and the
// indexes of the models that failed only with one of the given codes (a
// replacement that would change _id or, on FerretDB, collided with the
// document it was meant to replace; an insert of a stored key).
func (b *rawDocs) bulk(ctx context.Context, coll string, models []mongo.WriteModel, codes ...int) (mongo.BulkWriteResult, []int, error) {
	var done mongo.BulkWriteResult
	err := b.run(ctx, func(ctx context.Context) error {
		r, err := b.coll(coll).BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
		if r != nil {
			done = *r
		}
		return err
	})
	var bwe mongo.BulkWriteException
	if err == nil {
		return done, nil, nil
	}
	if !errors.As(err, &bwe) || bwe.WriteConcernError != nil {
		return done, nil, b.wrapOp("import", coll, err)
	}
	var failed []int
	for _, we := range bwe.WriteErrors {
		if !slices.Contains(codes, we.Code) {
			return done, nil, b.wrapOp("import", coll, err)
		}
		failed = append(failed, we.Index)
	}
	return done, failed, nil
}

// ScanRaw calls fn for each document of coll in unique-key order; for msg a
// non-empty prefix limits it to the doc_ids starting with prefix.
func (b *rawDocs) ScanRaw(ctx context.Context, coll, prefix string, fn func(bson.Raw) error) error {
	filter := bson.D{}
	if coll == bucket.CollMsg && prefix != "" {
		rng := bson.D{{Key: "$gte", Value: prefix}}
		if end, ok := prefixEnd(prefix); ok {
			rng = append(rng, bson.E{Key: "$lt", Value: end})
		}
		filter = bson.D{{Key: "doc_id", Value: rng}}
	}
	var sort bson.D
	for _, k := range bucket.UniqueKey(coll) {
		sort = append(sort, bson.E{Key: k, Value: 1})
	}
	return b.scan(ctx, findQuery{coll: coll, filter: filter, sort: sort}, func(raw bson.Raw) error {
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
