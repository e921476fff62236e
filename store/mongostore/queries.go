package mongostore

import (
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// The query documents chatlens sends, each built by one function: the
// backend methods run them and Explain (what `check` reports) wraps the very
// same ones, so an explained shape cannot drift from the query sent. The msg
// shapes are OpenIM's (pkg/common/storage/database/mgo/msg.go in
// open-im-server): updates by doc_id, $addToSet with $each for del_list,
// mark-read guarded by msgs.<i>.msg.send_id $ne reader.

// findQuery is one find: collection, filter and the options chatlens sets.
type findQuery struct {
	coll                     string
	filter, projection, sort bson.D
	limit                    int64 // 0: none
}

// options are q's projection, sort and limit for the driver; nil when none.
func (q findQuery) options() *options.FindOptionsBuilder {
	if q.projection == nil && q.sort == nil && q.limit == 0 {
		return nil
	}
	o := options.Find()
	if q.projection != nil {
		o.SetProjection(q.projection)
	}
	if q.sort != nil {
		o.SetSort(q.sort)
	}
	if q.limit != 0 {
		o.SetLimit(q.limit)
	}
	return o
}

// oneOptions are q's options for FindOne, which sends limit 1 itself.
func (q findQuery) oneOptions() *options.FindOneOptionsBuilder {
	return options.FindOne().SetSort(q.sort).SetProjection(q.projection)
}

// command is q as the find command the driver sends.
func (q findQuery) command() bson.D {
	cmd := bson.D{{Key: "find", Value: q.coll}, {Key: "filter", Value: q.filter}}
	if q.projection != nil {
		cmd = append(cmd, bson.E{Key: "projection", Value: q.projection})
	}
	if q.sort != nil {
		cmd = append(cmd, bson.E{Key: "sort", Value: q.sort})
	}
	if q.limit != 0 {
		cmd = append(cmd, bson.E{Key: "limit", Value: q.limit})
	}
	return cmd
}

// updateQuery is one updateOne.
type updateQuery struct {
	coll           string
	filter, update bson.D
	upsert         bool
}

// command is q as the update command the driver sends.
func (q updateQuery) command() bson.D {
	return bson.D{{Key: "update", Value: q.coll}, {Key: "updates", Value: bson.A{
		bson.D{{Key: "q", Value: q.filter}, {Key: "u", Value: q.update}, {Key: "upsert", Value: q.upsert}}}}}
}

// slotPath is "msgs.<slot>.<field>".
func slotPath(slot int, field string) string {
	return "msgs." + strconv.Itoa(slot) + "." + field
}

func in[T any](values []T) bson.D { return bson.D{{Key: "$in", Value: values}} }

// docIDsOnly projects a msg document to its doc_id, so the doc_id index
// covers the query.
var docIDsOnly = bson.D{{Key: "doc_id", Value: 1}, {Key: "_id", Value: 0}}

// docIDsOf is the doc_id range of cid's buckets: "<cid>:" up to "<cid>;"
// (';' is the byte after ':').
func docIDsOf(cid string) bson.D {
	return bson.D{{Key: "$gte", Value: cid + ":"}, {Key: "$lt", Value: cid + ";"}}
}

// findBuckets reads the buckets docIDs.
func findBuckets(docIDs []string) findQuery {
	return findQuery{coll: bucket.CollMsg, filter: bson.D{{Key: "doc_id", Value: in(docIDs)}}}
}

// findBucket reads the bucket docID whole.
func findBucket(docID string) findQuery {
	return findQuery{coll: bucket.CollMsg, filter: bson.D{{Key: "doc_id", Value: docID}}}
}

// findSlots reads n slots of the bucket docID from slot first: a $slice
// projection, where the server honours it.
func findSlots(docID string, first, n int) findQuery {
	q := findBucket(docID)
	q.projection = bson.D{{Key: "msgs", Value: bson.D{{Key: "$slice", Value: bson.A{first, n}}}}}
	return q
}

// aggregateQuery is one aggregate: collection and pipeline.
type aggregateQuery struct {
	coll     string
	pipeline bson.A
}

// sliceRanges reads the buckets of ranges in one aggregation, the msgs of
// each partly asked one cut with $slice (the projection find has, per
// doc_id); every other field is kept, as findSlots keeps it. A msgs that
// is not an array is left as it is, as find's $slice leaves it, for the
// reader to show as the malformed bucket it is.
func sliceRanges(ranges []store.SlotRange) aggregateQuery {
	ids := make([]string, len(ranges))
	var branches bson.A
	for i, r := range ranges {
		ids[i] = r.DocID
		if r.Whole() {
			continue
		}
		cut := bson.D{{Key: "$cond", Value: bson.A{msgsIsArray,
			bson.D{{Key: "$slice", Value: bson.A{msgsOrEmpty, r.First, r.N}}}, "$msgs"}}}
		branches = append(branches, bson.D{{Key: "case", Value: bson.D{{Key: "$eq", Value: bson.A{"$doc_id", r.DocID}}}},
			{Key: "then", Value: cut}})
	}
	msgs := bson.D{{Key: "$switch", Value: bson.D{{Key: "branches", Value: branches}, {Key: "default", Value: "$msgs"}}}}
	return aggregateQuery{coll: bucket.CollMsg, pipeline: bson.A{
		bson.D{{Key: "$match", Value: bson.D{{Key: "doc_id", Value: in(ids)}}}},
		bson.D{{Key: "$addFields", Value: bson.D{{Key: "msgs", Value: msgs}}}},
	}}
}

var msgsIsArray = bson.D{{Key: "$isArray", Value: "$msgs"}}

// msgsOrEmpty is msgs where it is an array, else []: what $slice is
// handed. Some engines evaluate both branches of $cond (FerretDB v2 with
// DocumentDB does), and $slice of a document or a string fails the whole
// aggregation there, one malformed bucket hiding every other.
var msgsOrEmpty = bson.D{{Key: "$cond", Value: bson.A{msgsIsArray, "$msgs", bson.A{}}}}

// bucketIDs lists cid's doc_ids in order, from the doc_id index alone.
func bucketIDs(cid string) findQuery {
	return findQuery{coll: bucket.CollMsg, filter: bson.D{{Key: "doc_id", Value: docIDsOf(cid)}},
		projection: docIDsOnly, sort: bson.D{{Key: "doc_id", Value: 1}}}
}

// nextConversationID is one step of a loose index scan over doc_id: the
// first doc_id past every bucket of after ("" for the first of all).
func nextConversationID(after string) findQuery {
	filter := bson.D{}
	if after != "" {
		filter = bson.D{{Key: "doc_id", Value: bson.D{{Key: "$gt", Value: after + ";"}}}}
	}
	return findQuery{coll: bucket.CollMsg, filter: filter, projection: docIDsOnly,
		sort: bson.D{{Key: "doc_id", Value: 1}}, limit: 1}
}

// msgDocIDsIn finds, among the buckets docIDs, the ones holding a message
// whose field is value.
func msgDocIDsIn(docIDs []string, field, value string) findQuery {
	return findQuery{coll: bucket.CollMsg, filter: bson.D{{Key: "doc_id", Value: in(docIDs)},
		{Key: "msgs.msg." + field, Value: value}}, projection: docIDsOnly}
}

// msgDocIDs finds the buckets holding a message whose field is value, in
// cid only when cid is not "". A dotted-path equality, the shape an index
// on msgs.msg.<field> answers (no $elemMatch: FerretDB gets those wrong on
// sub-documents).
func msgDocIDs(cid, field, value string) findQuery {
	filter := bson.D{{Key: "msgs.msg." + field, Value: value}}
	if cid != "" {
		filter = append(filter, bson.E{Key: "doc_id", Value: docIDsOf(cid)})
	}
	return findQuery{coll: bucket.CollMsg, filter: filter, projection: docIDsOnly}
}

// setSlots sets field of each slot of sets (OpenIM's UpdateMsg, here
// several slots in one update).
func setSlots(docID, field string, sets []store.SlotValue) updateQuery {
	set := make(bson.D, len(sets))
	for i, sv := range sets {
		set[i] = bson.E{Key: slotPath(sv.Slot, field), Value: sv.Value}
	}
	return updateQuery{coll: bucket.CollMsg, filter: bson.D{{Key: "doc_id", Value: docID}},
		update: bson.D{{Key: "$set", Value: set}}}
}

// setSlotsIfUnset is setSlots matching only while field of every slot is
// not a document. Not {field: null}: on an array path a null test also
// matches slot documents that merely lack a field named "<slot>", which
// every slot does; a type test sees only the slot's value.
func setSlotsIfUnset(docID, field string, sets []store.SlotValue) updateQuery {
	q := setSlots(docID, field, sets)
	for _, sv := range sets {
		q.filter = append(q.filter, bson.E{Key: slotPath(sv.Slot, field),
			Value: bson.D{{Key: "$not", Value: bson.D{{Key: "$type", Value: "object"}}}}})
	}
	return q
}

// addToDelList adds users to the del_list of one slot (OpenIM's
// PushUnique: $addToSet with $each, one slot's path per update).
func addToDelList(docID string, slot int, users []string) updateQuery {
	return updateQuery{coll: bucket.CollMsg, filter: bson.D{{Key: "doc_id", Value: docID}},
		update: bson.D{{Key: "$addToSet", Value: bson.D{{Key: slotPath(slot, "del_list"),
			Value: bson.D{{Key: "$each", Value: users}}}}}}}
}

// markRead sets is_read of slot unless reader sent it (OpenIM's
// MarkSingleChatMsgsAsRead, one per slot).
func markRead(docID string, slot int, reader string) updateQuery {
	return updateQuery{coll: bucket.CollMsg,
		filter: bson.D{{Key: "doc_id", Value: docID},
			{Key: slotPath(slot, "msg.send_id"), Value: bson.D{{Key: "$ne", Value: reader}}}},
		update: bson.D{{Key: "$set", Value: bson.D{{Key: slotPath(slot, "is_read"), Value: true}}}}}
}

// raise is an upsert that raises field to at least value, creating the
// record under the _id id with the onInsert fields at 0. The _id derived
// from the filter's key is what keeps a second record out: of two first
// upserts racing, the unique _id index refuses the second insert.
func raise(coll string, filter bson.D, id string, field string, value int64, onInsert ...string) updateQuery {
	zero := bson.D{{Key: "_id", Value: id}}
	for _, f := range onInsert {
		zero = append(zero, bson.E{Key: f, Value: int64(0)})
	}
	return updateQuery{coll: coll, filter: filter, upsert: true,
		update: bson.D{{Key: "$max", Value: bson.D{{Key: field, Value: value}}}, {Key: "$setOnInsert", Value: zero}}}
}

// raiseMaxSeq raises cid's seq.max_seq.
func raiseMaxSeq(cid string, maxSeq int64) updateQuery {
	return raise(bucket.CollSeq, bson.D{{Key: "conversation_id", Value: cid}}, bucket.SeqID(cid), "max_seq", maxSeq, "min_seq")
}

// raiseReadSeq raises uid's seq_user.read_seq in cid.
func raiseReadSeq(uid, cid string, seq int64) updateQuery {
	return raise(bucket.CollSeqUser, bson.D{{Key: "user_id", Value: uid}, {Key: "conversation_id", Value: cid}},
		bucket.SeqUserID(uid, cid), "read_seq", seq, "max_seq", "min_seq")
}

func seqRecords(cids []string) findQuery {
	return findQuery{coll: bucket.CollSeq, filter: bson.D{{Key: "conversation_id", Value: in(cids)}}}
}

func seqUsers(uid string, cids []string) findQuery {
	return findQuery{coll: bucket.CollSeqUser, filter: bson.D{{Key: "user_id", Value: uid}, {Key: "conversation_id", Value: in(cids)}}}
}

func seqUsersOf(cid string, uids []string) findQuery {
	return findQuery{coll: bucket.CollSeqUser, filter: bson.D{{Key: "conversation_id", Value: cid}, {Key: "user_id", Value: in(uids)}}}
}

func conversationsOf(owner string) findQuery {
	return findQuery{coll: bucket.CollConversation, filter: bson.D{{Key: "owner_user_id", Value: owner}}}
}

func conversationsWithID(cid string) findQuery {
	return findQuery{coll: bucket.CollConversation, filter: bson.D{{Key: "conversation_id", Value: cid}}}
}

func users(ids []string) findQuery {
	return findQuery{coll: bucket.CollUser, filter: bson.D{{Key: "user_id", Value: in(ids)}}}
}

func groups(ids []string) findQuery {
	return findQuery{coll: bucket.CollGroup, filter: bson.D{{Key: "group_id", Value: in(ids)}}}
}

func groupMembers(groupID string) findQuery {
	return findQuery{coll: bucket.CollGroupMember, filter: bson.D{{Key: "group_id", Value: groupID}}}
}
