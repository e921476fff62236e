package mongostore

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
)

// FindMsgDocIDs: find({"msgs.msg.<field>": value [, doc_id range]}, {doc_id: 1, _id: 0}).
// A plain dotted-path equality matches any element of msgs, and it is the
// shape an index on msgs.msg.<field> answers (no $elemMatch: FerretDB gets
// those wrong on sub-documents).
func (b *Backend) FindMsgDocIDs(ctx context.Context, cid, field, value string) ([]string, error) {
	filter := bson.D{{Key: "msgs.msg." + field, Value: value}}
	if cid != "" {
		filter = append(filter, bson.E{Key: "doc_id", Value: bson.D{{Key: "$gte", Value: cid + ":"}, {Key: "$lt", Value: cid + ";"}}})
	}
	opts := options.Find().SetProjection(bson.D{{Key: "doc_id", Value: 1}, {Key: "_id", Value: 0}})
	var ids []string
	err := b.scan(ctx, store.CollMsg, filter, opts, func(raw bson.Raw) error {
		if id, ok := raw.Lookup("doc_id").StringValueOK(); ok {
			ids = append(ids, id)
		}
		return nil
	})
	return ids, err
}
