package check

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// explaining gives a backend canned query plans.
// It serves store.Explainer; every other call goes to the Backend it
// wraps.
type explaining struct {
	store.Backend
	plans *store.QueryPlans
}

func (e explaining) Explain(context.Context) (*store.QueryPlans, error) { return e.plans, nil }

// TestPlansAreReported: each query shape gets a line saying how the server
// runs it; a query that scans msg, or a shard key other than doc_id, is a
// problem; a scan of seq (an OpenIM index missing) is advice; a doc_id shard
// key is said to target one shard. A PostgreSQL-backed engine's plan nodes
// read the same way (Seq Scan is its COLLSCAN), and its refusal to explain
// updates is one line, not an error per update shape.
func TestPlansAreReported(t *testing.T) {
	ixscan := store.PlanReport{Shape: "find msg {doc_id: {$in}} (read buckets)", Stage: "IXSCAN", Index: "doc_id_1", Shards: 1, Detail: "SINGLE_SHARD"}
	scan := store.PlanReport{Shape: "update msg {doc_id} $set (insert, revoke)", Stage: "COLLSCAN"}
	seqScan := store.PlanReport{Shape: "find seq {conversation_id: {$in}}", Stage: "COLLSCAN"}
	tests := []struct {
		name     string
		plans    store.QueryPlans
		problems int
		want     []string
	}{
		{"indexed, sharded by doc_id", store.QueryPlans{Plans: []store.PlanReport{ixscan}, ShardKey: "doc_id: hashed", ShardKeyByDocID: true}, 0,
			[]string{"plan: find msg {doc_id: {$in}} (read buckets): IXSCAN doc_id_1, 1 shard(s) (SINGLE_SHARD)",
				"shard key: msg {doc_id: hashed}: a query by doc_id targets one shard"}},
		{"msg update and seq find scan", store.QueryPlans{Plans: []store.PlanReport{ixscan, scan, seqScan}}, 1,
			[]string{"plan: update msg {doc_id} $set (insert, revoke): COLLSCAN", "scans the whole collection (COLLSCAN)",
				"advice: find seq {conversation_id: {$in}} scans the whole collection (COLLSCAN)",
				"shard key: msg is not sharded"}},
		{"an engine that answers with PostgreSQL's plan and explains no update", store.QueryPlans{Plans: []store.PlanReport{
			{Shape: "find msg {doc_id: {$in}} (read buckets)", Stage: "Bitmap Index Scan", Index: "doc_id_1", Detail: "PostgreSQL plan: Bitmap Heap Scan > Bitmap Index Scan"},
			{Shape: "find msg {doc_id: $gt} sort limit 1 (next conversation)", Stage: store.SeqScan, Detail: "PostgreSQL plan: Limit > Seq Scan"},
			{Shape: "find seq_user {user_id, conversation_id: {$in}}", Stage: store.SeqScan, Detail: "PostgreSQL plan: Seq Scan"}},
			UpdatesUnexplained: 7}, 1,
			[]string{"plan: find msg {doc_id: {$in}} (read buckets): Bitmap Index Scan doc_id_1 (PostgreSQL plan: Bitmap Heap Scan > Bitmap Index Scan)",
				"find msg {doc_id: $gt} sort limit 1 (next conversation) scans the whole collection (Seq Scan)",
				"advice: find seq_user {user_id, conversation_id: {$in}} scans the whole collection (Seq Scan)",
				"plans: this engine does not explain updates (7 update shape(s) not explained)"}},
		{"sharded on something else", store.QueryPlans{Plans: []store.PlanReport{ixscan}, ShardKey: "_id: 1"}, 1,
			[]string{"queries by doc_id go to every shard"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, b := openStore(t, cleanBucket())
			ex := explaining{Backend: b, plans: &tt.plans}
			r, err := Run(context.Background(), store.New(ex, store.Options{}), "", nil)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			r.Write(&out)
			if n, once := strings.Count(out.String(), "explain"), tt.plans.UpdatesUnexplained > 0; (n > 0) != once || n > 2 {
				t.Errorf("updates not explained said %d times, want once:\n%s", n, out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, out.String())
				}
			}
			n := 0
			for _, p := range r.Listed {
				if p.Kind == bucket.KindIndex && (strings.Contains(p.Reason, "scans the whole collection") || strings.Contains(p.Reason, "shard")) {
					n++
				}
			}
			if n != tt.problems {
				t.Errorf("%d plan problems, want %d:\n%s", n, tt.problems, out.String())
			}
		})
	}
}
