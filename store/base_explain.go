package store

import "context"

// Explainer is implemented by backends whose server can say how it would
// run chatlens's own query shapes (MongoDB's explain). check uses it to
// report whether each shape is served by an index and, on a sharded
// cluster, whether the shard key lets it target one shard.
type Explainer interface {
	Explain(ctx context.Context) (*QueryPlans, error)
}

// ShardKeyed is implemented by backends on a server that may shard msg.
type ShardKeyed interface {
	// MsgShardKey is msg's shard key ("doc_id: 1", "doc_id: hashed"), ""
	// when msg is not sharded.
	MsgShardKey(ctx context.Context) (string, error)
}

// QueryPlans is what the server said about each query shape.
type QueryPlans struct {
	Plans []PlanReport
	// ShardKey is the msg collection's shard key ("doc_id: 1",
	// "doc_id: hashed"), "" when msg is not sharded.
	ShardKey string
	// ShardKeyByDocID is true when the shard key starts with doc_id, so a
	// query by doc_id can be routed to one shard.
	ShardKeyByDocID bool
	// UpdatesUnexplained counts the update shapes not explained because
	// the server refuses to explain updates (FerretDB v2 does); they have
	// no PlanReport.
	UpdatesUnexplained int
}

// PlanReport is how the server would run one query shape.
type PlanReport struct {
	Shape string // e.g. "find msg {doc_id: {$in: [...]}}"
	// Stage is the winning plan's access stage: IXSCAN, COLLSCAN, IDHACK,
	// EXPRESS_IXSCAN, ...; on a PostgreSQL-backed server (FerretDB v2) the
	// plan node: Index Scan, Bitmap Index Scan, Seq Scan, ...; "" when the
	// server's explain does not say (FerretDB v1's lines, kept in Detail).
	Stage string
	Index string // the index used, when the plan names one
	// Shards is how many shards the plan visits, 0 when not sharded.
	Shards int
	Detail string // anything else worth showing, as the server put it
	Err    error  // explain failed for this shape; the others may still be reported
}

// SeqScan is PostgreSQL's plan node that reads a whole table: the
// COLLSCAN of a PostgreSQL-backed server.
const SeqScan = "Seq Scan"

// Scans reports a plan that reads the whole collection.
func (p PlanReport) Scans() bool { return p.Stage == "COLLSCAN" || p.Stage == SeqScan }
