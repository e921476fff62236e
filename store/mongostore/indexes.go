package mongostore

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
)

// wantIndex is an index chatlens relies on: ascending keys, in order.
type wantIndex struct {
	coll   string
	keys   []string
	unique bool
}

// wanted lists the indexes that keep every query of this backend on an index.
var wanted = []wantIndex{
	{store.CollMsg, []string{"doc_id"}, true},
	{store.CollSeq, []string{"conversation_id"}, true},
	{store.CollSeqUser, []string{"user_id", "conversation_id"}, true},
	{store.CollConversation, []string{"owner_user_id", "conversation_id"}, true},
	{store.CollConversation, []string{"conversation_id"}, false},
	{store.CollUser, []string{"user_id"}, false},
	{store.CollGroup, []string{"group_id"}, false},
	{store.CollGroupMember, []string{"group_id", "user_id"}, false},
}

// EnsureIndexes creates the wanted indexes that are missing. An index with
// the same keys under another name (OpenIM creates its own) counts as
// present; one that is not unique where uniqueness is needed is an error,
// because the state machine depends on the duplicate-key answer.
func (b *Backend) EnsureIndexes(ctx context.Context) error {
	have, err := b.Indexes(ctx)
	if err != nil {
		return err
	}
	for _, w := range wanted {
		i := slices.IndexFunc(have[w.coll], func(ix store.IndexInfo) bool { return slices.Equal(ix.Keys, w.keys) })
		if i >= 0 {
			if w.unique && !have[w.coll][i].Unique {
				return fmt.Errorf("%s has a non-unique index %s on %v: it must be unique (drop it and run again)",
					w.coll, have[w.coll][i].Name, w.keys)
			}
			continue
		}
		var keys bson.D
		for _, k := range w.keys {
			keys = append(keys, bson.E{Key: k, Value: 1})
		}
		model := mongo.IndexModel{Keys: keys, Options: options.Index().SetUnique(w.unique)}
		err := b.run(ctx, func(ctx context.Context) error {
			_, err := b.coll(w.coll).Indexes().CreateOne(ctx, model)
			return err
		})
		if err != nil {
			return fmt.Errorf("create index on %s %v: %w", w.coll, w.keys, b.wrap(err))
		}
	}
	return nil
}

// Indexes lists the indexes of each collection chatlens reads; a missing
// collection has none.
func (b *Backend) Indexes(ctx context.Context) (map[string][]store.IndexInfo, error) {
	out := map[string][]store.IndexInfo{}
	for _, coll := range store.Collections {
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
