package mongostore

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// EnsureIndexes creates those of OpenIM's indexes (store.OpenIMIndexes)
// that are missing, with OpenIM's keys, options and names, so OpenIM's own
// createIndexes at its next start-up finds exactly what it would have made.
// An index with the same keys (under any name, with any options) or with
// the same name is left alone: nothing present is ever changed, and check
// reports where it differs from OpenIM's.
func (b *rawDocs) EnsureIndexes(ctx context.Context) error {
	have, err := b.Indexes(ctx)
	if err != nil {
		return err
	}
	for _, want := range store.OpenIMIndexes {
		if state, _ := store.CompareIndex(want, have[want.Coll]); state != store.IndexMissing {
			continue
		}
		var keys bson.D
		for _, k := range want.Keys {
			keys = append(keys, bson.E{Key: k, Value: 1})
		}
		// OpenIM never sets unique: false; sending it would differ in spelling.
		opts := options.Index().SetName(want.Name)
		if want.Unique {
			opts.SetUnique(true)
		}
		err := b.run(ctx, func(ctx context.Context) error {
			_, err := b.coll(want.Coll).Indexes().CreateOne(ctx, mongo.IndexModel{Keys: keys, Options: opts})
			return err
		})
		if err != nil {
			return fmt.Errorf("create index %s %s on %s: %w", want.Name, want.Describe(), want.Coll, b.wrap(err))
		}
	}
	return nil
}

var _ store.OpenIMIndexed = (*rawDocs)(nil)

// SharesIndexesWithOpenIM: OpenIM Server creates indexes on this database too.
func (b *rawDocs) SharesIndexesWithOpenIM() bool { return true }

// Indexes lists the indexes of each collection chatlens reads; a missing
// collection has none.
func (b *rawDocs) Indexes(ctx context.Context) (map[string][]store.IndexInfo, error) {
	out := map[string][]store.IndexInfo{}
	for _, coll := range bucket.Collections {
		var list []store.IndexInfo
		err := b.run(ctx, func(ctx context.Context) error {
			cur, err := b.coll(coll).Indexes().List(ctx)
			if err != nil {
				return err
			}
			defer cur.Close(context.WithoutCancel(ctx))
			for cur.Next(ctx) {
				list = append(list, indexInfo(cur.Current))
			}
			return cur.Err()
		})
		if isNamespaceNotFound(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("list indexes of %s: %w", coll, b.wrap(err))
		}
		out[coll] = list
	}
	return out, nil
}

func indexInfo(raw bson.Raw) store.IndexInfo {
	info := store.IndexInfo{Name: str(raw, "name"), Unique: boolean(raw, "unique")}
	if keys, ok := raw.Lookup("key").DocumentOK(); ok {
		elems, _ := keys.Elements()
		for _, e := range elems {
			info.Keys = append(info.Keys, e.Key())
		}
	}
	return info
}

// isNamespaceNotFound: listIndexes on a collection that does not exist.
func isNamespaceNotFound(err error) bool {
	var ce mongo.CommandError
	return errors.As(err, &ce) && (ce.Code == 26 || ce.Name == "NamespaceNotFound")
}
