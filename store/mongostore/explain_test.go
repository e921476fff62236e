package mongostore_test

import (
	"os"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/mongotest"
)

// TestExplainEveryQueryShape asks the server for the plan of each query
// chatlens makes. FerretDB answers in its own format: every shape still
// gets a line with what it said. On a real server (CHATLENS_TEST_MONGO_URI:
// MongoDB, or a PostgreSQL-backed engine whose plan nodes name the index),
// every msg shape must use the doc_id index; an engine that refuses to
// explain updates has them counted, not failed one by one.
func TestExplainEveryQueryShape(t *testing.T) {
	uri, real := mongotest.URI(t)
	b := openDB(t, uri)
	plans, err := b.Explain(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if plans.UpdatesUnexplained > 0 {
		t.Logf("the server does not explain updates: %d update shapes not explained", plans.UpdatesUnexplained)
	}
	if len(plans.Plans) < 8 {
		t.Errorf("%d plans, want one for each of chatlens's 8 query shapes", len(plans.Plans))
	}
	for _, p := range plans.Plans {
		t.Logf("%s: stage %q index %q shards %d: %s", p.Shape, p.Stage, p.Index, p.Shards, p.Detail)
		if p.Err != nil {
			t.Errorf("%s: %v", p.Shape, p.Err)
			continue
		}
		if p.Stage == "" && p.Detail == "" {
			t.Errorf("%s: the report says nothing", p.Shape)
		}
		if real && strings.Contains(p.Shape, " msg ") && (p.Scans() || p.Stage == "") {
			t.Errorf("%s runs as %q, want an index scan on doc_id", p.Shape, p.Stage)
		}
	}
	if !real && plans.ShardKey != "" {
		t.Errorf("FerretDB reported a shard key %q", plans.ShardKey)
	}
	if real && os.Getenv("CHATLENS_TEST_MONGO_SHARDED") != "" && !plans.ShardKeyByDocID {
		t.Errorf("shard key %q does not start with doc_id", plans.ShardKey)
	}
}
