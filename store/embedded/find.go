package embedded

import (
	"context"

	bolt "go.etcd.io/bbolt"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// FindMsgDocIDs scans the raw BSON of every msg document (of cid, when
// given) for a slot whose msg.<field> equals value, without decoding the
// buckets: what MongoDB's find on "msgs.msg.<field>" matches.
func (b *msgReads) FindMsgDocIDs(ctx context.Context, cid, field, value string) ([]string, error) {
	prefix := ""
	if cid != "" {
		prefix = cid + ":"
	}
	var ids []string
	err := b.db.View(func(tx *bolt.Tx) error {
		return eachMsgKey(tx, prefix, msgPos{}, func(_ msgPos, docID string, val []byte) (bool, error) {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			b.db.countRead(val)
			b.db.read(len(val))
			if slotHolds(bson.Raw(val), field, value) {
				ids = append(ids, docID)
			}
			return true, nil
		})
	})
	return ids, err
}

// FindMsgDocIDsIn looks into the buckets docIDs only: a point read each.
func (b *msgReads) FindMsgDocIDsIn(ctx context.Context, docIDs []string, field, value string) ([]string, error) {
	var ids []string
	err := b.db.View(func(tx *bolt.Tx) error {
		for _, id := range docIDs {
			if err := ctx.Err(); err != nil {
				return err
			}
			val := getMsg(tx, id)
			if val == nil {
				continue
			}
			b.db.countRead(val)
			b.db.read(len(val))
			if slotHolds(bson.Raw(val), field, value) {
				ids = append(ids, id)
			}
		}
		return nil
	})
	return ids, err
}

// slotHolds reports any element of doc.msgs whose msg.<field> is value.
func slotHolds(doc bson.Raw, field, value string) bool {
	arr, ok := doc.Lookup("msgs").ArrayOK()
	if !ok {
		return false
	}
	vals, err := arr.Values()
	if err != nil {
		return false
	}
	for _, v := range vals {
		slot, ok := v.DocumentOK()
		if !ok {
			continue
		}
		if got, ok := slot.Lookup("msg", field).StringValueOK(); ok && got == value {
			return true
		}
	}
	return false
}
