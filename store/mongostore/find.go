package mongostore

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// FindMsgDocIDs: find({"msgs.msg.<field>": value [, doc_id range]}, {doc_id: 1, _id: 0}).
// A plain dotted-path equality matches any element of msgs, and it is the
// shape an index on msgs.msg.<field> answers (no $elemMatch: FerretDB gets
// those wrong on sub-documents).
func (b *msgReads) FindMsgDocIDs(ctx context.Context, cid, field, value string) ([]string, error) {
	var ids []string
	err := b.scan(ctx, msgDocIDs(cid, field, value), func(raw bson.Raw) error {
		if id, ok := raw.Lookup("doc_id").StringValueOK(); ok {
			ids = append(ids, id)
		}
		return nil
	})
	return ids, err
}

// FindMsgDocIDsIn: msgDocIDsIn, the matching doc_ids only.
func (b *msgReads) FindMsgDocIDsIn(ctx context.Context, docIDs []string, field, value string) ([]string, error) {
	var ids []string
	err := b.scan(ctx, msgDocIDsIn(docIDs, field, value), func(raw bson.Raw) error {
		if id, ok := raw.Lookup("doc_id").StringValueOK(); ok {
			ids = append(ids, id)
		}
		return nil
	})
	return ids, err
}
