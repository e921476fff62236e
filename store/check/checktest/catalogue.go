package checktest

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// Case is one entry of the catalogue of broken buckets found in real
// stores: what is wrong, the kind check reports, and where.
type Case struct {
	Name string
	Doc  bson.D
	Kind bucket.ProblemKind
	Slot int // the position check names and DecodeBucket marks; -1 for the whole document
}

// Catalogue lists every malformed bucket check must report, the read path
// must survive and the UI must mark (issue 5). Each is bucket 0 of Cid with
// one thing broken; slot 5 holds seq 6, a text-free picture message. What
// OpenIM's own writes leave (a slot without del_list, an empty slot marked
// read or deleted for someone) is not here: see OpenIMBuckets.
func Catalogue() []Case {
	return []Case{
		{"99 slots", Bucket(DocID, CleanSlots()[:99]), bucket.KindLength, -1},
		{"101 slots", Bucket(DocID, append(CleanSlots(), EmptySlot())), bucket.KindLength, -1},
		{"0 slots", Bucket(DocID, bson.A{}), bucket.KindLength, -1},
		{"msgs missing", Without(CleanBucket(), "msgs"), bucket.KindLength, -1},
		{"msgs is a document", Bucket(DocID, bson.D{{Key: "0", Value: EmptySlot()}}), bucket.KindLength, -1},
		{"null slot", Bucket(DocID, WithSlot(5, nil)), bucket.KindNullSlot, 5},
		{"slot is a string", Bucket(DocID, WithSlot(5, "hello")), bucket.KindSlotType, 5},
		{"slot is a number", Bucket(DocID, WithSlot(5, int32(42))), bucket.KindSlotType, 5},
		{"slot is an array", Bucket(DocID, WithSlot(5, bson.A{})), bucket.KindSlotType, 5},
		{"send_id is a number", Bucket(DocID, WithMsgField(5, "send_id", int64(12345))), bucket.KindFieldType, 5},
		{"seq is a string", Bucket(DocID, WithMsgField(5, "seq", "6")), bucket.KindFieldType, 5},
		{"content_type is a fraction", Bucket(DocID, WithMsgField(5, "content_type", 101.5)), bucket.KindFieldType, 5},
		{"session_type beyond int32", Bucket(DocID, WithMsgField(5, "session_type", int64(1)<<40)), bucket.KindFieldType, 5},
		{"at_user_id_list holds a number", Bucket(DocID, WithMsgField(5, "at_user_id_list", bson.A{int32(1)})), bucket.KindFieldType, 5},
		{"options holds a string", Bucket(DocID, WithMsgField(5, "options", bson.D{{Key: "history", Value: "yes"}})), bucket.KindFieldType, 5},
		{"msg is a string", Bucket(DocID, WithSlot(5, With(EmptySlot(), "msg", "hi"))), bucket.KindFieldType, 5},
		{"del_list is null", Bucket(DocID, WithSlot(5, With(CleanSlots()[5].(bson.D), "del_list", nil))), bucket.KindFieldType, 5},
		{"is_read is a string", Bucket(DocID, WithSlot(5, With(CleanSlots()[5].(bson.D), "is_read", "true"))), bucket.KindFieldType, 5},
		{"revoke.time is a string", Bucket(DocID, WithSlot(2, With(CleanSlots()[2].(bson.D), "revoke",
			bson.D{{Key: "role", Value: int32(0)}, {Key: "user_id", Value: Alice}, {Key: "nickname", Value: "A"}, {Key: "time", Value: "now"}}))),
			bucket.KindFieldType, 2},
		{"seq disagrees with its slot", Bucket(DocID, WithMsgField(5, "seq", int64(7))), bucket.KindSeqMismatch, 5},
		{"doc_id with a non-numeric suffix", Bucket(Cid+":abc", CleanSlots()), bucket.KindDocID, -1},
		{"doc_id without an index", Bucket(Cid, CleanSlots()), bucket.KindDocID, -1},
		{"doc_id missing", Without(CleanBucket(), "doc_id"), bucket.KindDocID, -1},
		{"doc_id is a number", Bucket(int32(7), CleanSlots()), bucket.KindDocID, -1},
		{"msg lacks fields", Bucket(DocID, WithoutMsgFields(5, "content_type", "send_time", "ex")), bucket.KindMissingField, 5},
		{"revoke lacks time", Bucket(DocID, WithSlot(2, With(CleanSlots()[2].(bson.D), "revoke",
			bson.D{{Key: "role", Value: int32(0)}, {Key: "user_id", Value: Alice}, {Key: "nickname", Value: "A"}}))),
			bucket.KindMissingField, 2},
		{"empty message {}", Bucket(DocID, WithSlot(5, With(EmptySlot(), "msg", bson.D{}))), bucket.KindMissingField, 5},
		{"oversized content", Bucket(DocID, WithMsgField(5, "content", bigContent())), bucket.KindContentSize, 5},
		{"content is not JSON", Bucket(DocID, WithMsgField(5, "content", `{"sourcePicture":`)), bucket.KindContentJSON, 5},
		{"content is a JSON string", Bucket(DocID, WithMsgField(5, "content", `"just text"`)), bucket.KindContentJSON, 5},
		{"empty slot with an extra field", Bucket(DocID, WithSlot(50, With(EmptySlot(), "ex", ""))), bucket.KindEmptySlot, 50},
		// FerretDB v2 with DocumentDB, after one $addToSet naming several
		// slots' del_list where some held the user already
		// (shared/engine-recorded/README.md).
		{"slot with two del_list fields", Bucket(DocID, WithSlot(5, Twice(CleanSlots()[5].(bson.D), "del_list", bson.A{Bob}))),
			bucket.KindDuplicate, 5},
		{"message with content twice", Bucket(DocID, WithSlot(5, With(CleanSlots()[5].(bson.D), "msg",
			Twice(CleanSlots()[5].(bson.D)[0].Value.(bson.D), "content", `{"sourcePicture":{}}`)))), bucket.KindDuplicate, 5},
	}
}

// Twice is a copy of d with a second field named key, holding v, after the
// first: BSON allows it, and some engines write it.
func Twice(d bson.D, key string, v any) bson.D {
	out := append(bson.D{}, d...)
	for i := range out {
		if out[i].Key == key {
			return append(out[:i+1:i+1], append(bson.D{{Key: key, Value: v}}, out[i+1:]...)...)
		}
	}
	return append(out, bson.E{Key: key, Value: v})
}
