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
type explaining struct {
	store.Backend
	plans *store.QueryPlans
}

func (e explaining) Explain(context.Context) (*store.QueryPlans, error) { return e.plans, nil }

// TestPlansAreReported: each query shape gets a line saying how the server
// runs it; a query that scans msg, or a shard key other than doc_id, is a
// problem; a scan of seq (an OpenIM index missing) is advice; a doc_id shard
// key is said to target one shard.
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
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, out.String())
				}
			}
			n := 0
			for _, p := range r.Listed {
				if p.Kind == bucket.KindIndex && (strings.Contains(p.Reason, "COLLSCAN") || strings.Contains(p.Reason, "shard")) {
					n++
				}
			}
			if n != tt.problems {
				t.Errorf("%d plan problems, want %d:\n%s", n, tt.problems, out.String())
			}
		})
	}
}
