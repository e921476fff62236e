package mongostore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

var (
	_ store.Explainer  = (*queryPlans)(nil)
	_ store.ShardKeyed = (*queryPlans)(nil)
)

// shape is one query chatlens sends, as the command explain wraps.
type shape struct {
	name string
	cmd  bson.D
}

// shapes are chatlens's own queries with sample values, built by the same
// functions the backend methods run (queries.go): the plan depends on the
// shape, not on the values.
func shapes() []shape {
	const cid = "si_explain_a_b"
	docID := cid + ":0"
	one := []store.SlotValue{{Slot: 0, Value: nil}}
	return []shape{
		{"find msg {doc_id: {$in}} (read buckets)", findBuckets([]string{cid + ":0", cid + ":1"}).command()},
		{"find msg {doc_id} {msgs: {$slice}} (read slots)", findSlots(docID, 0, 1).command()},
		{"find msg {doc_id: prefix range} (list buckets)", bucketIDs(cid).command()},
		{"update msg {doc_id} $set (insert)", setSlots(docID, "msg", one).command()},
		{"update msg {doc_id, msgs.<i>.revoke $not $type} $set (revoke)", setSlotsIfUnset(docID, "revoke", one).command()},
		{"update msg {doc_id} $addToSet (delete for me)", addToDelList(docID, 0, []string{"u"}).command()},
		{"update msg {doc_id, send_id $ne} (mark read)", markRead(docID, 0, "u").command()},
		{"find seq {conversation_id: {$in}}", seqRecords([]string{cid}).command()},
		{"find seq_user {user_id, conversation_id: {$in}}", seqUsers("u", []string{cid}).command()},
		{"find seq_user {conversation_id, user_id: {$in}}", seqUsersOf(cid, []string{"u"}).command()},
		{"find conversation {owner_user_id}", conversationsOf("u").command()},
		{"find msg {doc_id: $gt} sort limit 1 (next conversation)", nextConversationID(cid).command()},
		{"update seq {conversation_id} $max upsert (max seq)", raiseMaxSeq(cid, 1).command()},
		{"update seq_user {user_id, conversation_id} $max (read seq)", raiseReadSeq("u", cid, 1).command()},
		{"find user {user_id: {$in}}", users([]string{"u", "v"}).command()},
		{"find group {group_id: {$in}}", groups([]string{"g", "h"}).command()},
		{"find group_member {group_id}", groupMembers("g").command()},
	}
}

// Explain asks the server how it would run each query shape (explain,
// queryPlanner verbosity: nothing is executed) and reads msg's shard key.
// A shape whose explain fails is reported with its error.
func (b *queryPlans) Explain(ctx context.Context) (*store.QueryPlans, error) {
	out := explainShapes(shapes(), func(s shape) (bson.Raw, error) {
		var raw bson.Raw
		err := b.run(ctx, func(ctx context.Context) error {
			return b.db.RunCommand(ctx, bson.D{{Key: "explain", Value: s.cmd}, {Key: "verbosity", Value: "queryPlanner"}}).Decode(&raw)
		})
		if err != nil && !refusesUpdateExplain(s, err) {
			err = b.wrapOp("explain", s.name, err)
		}
		return raw, err
	})
	key, err := b.shardKey(ctx)
	if err != nil {
		return out, err
	}
	out.ShardKey = key
	out.ShardKeyByDocID = strings.HasPrefix(key, "doc_id:")
	return out, nil
}

// explainShapes reads explain's answer to each shape. A server that
// refuses to explain an update (FerretDB v2: NotImplemented) is asked no
// more of them: its update shapes are counted, not listed.
func explainShapes(all []shape, explain func(shape) (bson.Raw, error)) *store.QueryPlans {
	out := &store.QueryPlans{}
	refused := false
	for _, s := range all {
		if refused && s.update() {
			out.UpdatesUnexplained++
			continue
		}
		raw, err := explain(s)
		if refusesUpdateExplain(s, err) {
			refused = true
			out.UpdatesUnexplained++
			continue
		}
		p := store.PlanReport{Shape: s.name, Err: err}
		if err == nil {
			p.Stage, p.Index, p.Shards, p.Detail = readPlan(raw)
		}
		out.Plans = append(out.Plans, p)
	}
	return out
}

func (s shape) update() bool { return len(s.cmd) > 0 && s.cmd[0].Key == "update" }

// refusesUpdateExplain says err is the server declining to explain the
// update s at all (code 238, NotImplemented), not a failure of this one.
func refusesUpdateExplain(s shape, err error) bool {
	var ce mongo.CommandError
	return s.update() && errors.As(err, &ce) && (ce.Code == 238 || ce.Name == "NotImplemented")
}

// MsgShardKey is msg's shard key, "" when msg is not sharded: one find.
func (b *queryPlans) MsgShardKey(ctx context.Context) (string, error) { return b.shardKey(ctx) }

// shardKey is msg's shard key from config.collections, "" when msg is not
// sharded (or the server has no config database, as on FerretDB).
func (b *queryPlans) shardKey(ctx context.Context) (string, error) {
	var raw bson.Raw
	err := b.run(ctx, func(ctx context.Context) error {
		return b.client.Database("config").Collection("collections").
			FindOne(ctx, bson.D{{Key: "_id", Value: b.db.Name() + "." + bucket.CollMsg}}).Decode(&raw)
	})
	if errors.Is(err, mongo.ErrNoDocuments) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the shard key of msg from config.collections: %w", b.wrap(err))
	}
	if dropped, _ := raw.Lookup("dropped").BooleanOK(); dropped {
		return "", nil
	}
	key, ok := raw.Lookup("key").DocumentOK()
	if !ok {
		return "", nil
	}
	elems, _ := key.Elements()
	parts := make([]string, 0, len(elems))
	for _, e := range elems {
		parts = append(parts, e.Key()+": "+strings.Trim(e.Value().String(), `"`))
	}
	return strings.Join(parts, ", "), nil
}

// readPlan finds the access stage of an explain answer: MongoDB's
// queryPlanner.winningPlan (classic or slot-based engine, behind mongos or
// not), PostgreSQL's plan tree under queryPlanner.Plan (FerretDB v2 with
// DocumentDB), or FerretDB v1's queryPlanner.Plan lines, kept as the detail.
func readPlan(raw bson.Raw) (stage, index string, shards int, detail string) {
	qp, ok := raw.Lookup("queryPlanner").DocumentOK()
	if !ok {
		return "", "", 0, "no queryPlanner in the explain answer"
	}
	if tree, ok := qp.Lookup("Plan").DocumentOK(); ok {
		stage, index, detail = postgresAccess(tree)
		return stage, index, 0, detail
	}
	if lines, ok := qp.Lookup("Plan").ArrayOK(); ok {
		vals, _ := lines.Values()
		var parts []string
		for _, v := range vals {
			if s, ok := v.StringValueOK(); ok {
				parts = append(parts, s)
			}
		}
		return "", "", 0, strings.Join(parts, "; ")
	}
	wp, ok := qp.Lookup("winningPlan").DocumentOK()
	if !ok {
		return "", "", 0, "no winningPlan in the explain answer"
	}
	if list, ok := wp.Lookup("shards").ArrayOK(); ok {
		vals, _ := list.Values()
		shards = len(vals)
		detail = str(wp, "stage") // SINGLE_SHARD, SHARD_MERGE, SHARD_WRITE
		if len(vals) > 0 {
			if first, ok := vals[0].DocumentOK(); ok {
				if inner, ok := first.Lookup("winningPlan").DocumentOK(); ok {
					wp = inner
				}
			}
		}
	}
	if sbe, ok := wp.Lookup("queryPlan").DocumentOK(); ok {
		wp = sbe
	}
	stage, index = accessStage(wp, 0)
	return stage, index, shards, detail
}

// accessStages are the stages that say how documents are found.
var accessStages = map[string]bool{"IXSCAN": true, "COLLSCAN": true, "IDHACK": true, "EXPRESS_IXSCAN": true,
	"EXPRESS_CLUSTERED_IXSCAN": true, "EXPRESS_UPDATE": true, "CLUSTERED_IXSCAN": true, "COUNT_SCAN": true, "DISTINCT_SCAN": true, "EOF": true}

// accessStage walks a plan tree down its input stages to the first access
// stage; the top stage when there is none.
func accessStage(plan bson.Raw, depth int) (stage, index string) {
	top := str(plan, "stage")
	if accessStages[top] || depth > 20 {
		return top, str(plan, "indexName")
	}
	var inputs []bson.Raw
	if in, ok := plan.Lookup("inputStage").DocumentOK(); ok {
		inputs = append(inputs, in)
	}
	if list, ok := plan.Lookup("inputStages").ArrayOK(); ok {
		vals, _ := list.Values()
		for _, v := range vals {
			if d, ok := v.DocumentOK(); ok {
				inputs = append(inputs, d)
			}
		}
	}
	for _, in := range inputs {
		if s, ix := accessStage(in, depth+1); accessStages[s] {
			return s, ix
		}
	}
	return top, str(plan, "indexName")
}

// postgresAccess reads a PostgreSQL plan tree: the first node that names
// an index (Index Scan, Index Only Scan, Bitmap Index Scan), else the first
// Seq Scan (store.SeqScan: the whole table read), else the top node; the
// detail is the chain of node types from the top.
func postgresAccess(tree bson.Raw) (stage, index, detail string) {
	var chain []string
	var seqScan bool
	var walk func(node bson.Raw, depth int)
	walk = func(node bson.Raw, depth int) {
		if depth > 20 {
			return
		}
		kind := str(node, "Node Type")
		chain = append(chain, kind)
		if name := str(node, "Index Name"); name != "" && index == "" {
			stage, index = kind, name
		}
		seqScan = seqScan || kind == store.SeqScan
		if list, ok := node.Lookup("Plans").ArrayOK(); ok {
			vals, _ := list.Values()
			for _, v := range vals {
				if d, ok := v.DocumentOK(); ok {
					walk(d, depth+1)
				}
			}
		}
	}
	walk(tree, 0)
	switch {
	case index != "":
	case seqScan:
		stage = store.SeqScan
	default:
		stage = str(tree, "Node Type")
	}
	return stage, index, "PostgreSQL plan: " + strings.Join(chain, " > ")
}
