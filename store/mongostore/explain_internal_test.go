package mongostore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/recordingtest"
)

// TestReadPlan reads the explain answers of the servers chatlens meets:
// MongoDB's classic and slot-based engines, a mongos in front of shards,
// and FerretDB's own format.
func TestReadPlan(t *testing.T) {
	ix := bson.D{{Key: "stage", Value: "IXSCAN"}, {Key: "indexName", Value: "doc_id_1"}}
	fetch := bson.D{{Key: "stage", Value: "FETCH"}, {Key: "inputStage", Value: ix}}
	shard := func(name string, plan bson.D) bson.D {
		return bson.D{{Key: "shardName", Value: name}, {Key: "winningPlan", Value: plan}}
	}
	tests := []struct {
		name              string
		qp                bson.D
		stage, index, det string
		shards            int
	}{
		{"classic", bson.D{{Key: "winningPlan", Value: fetch}}, "IXSCAN", "doc_id_1", "", 0},
		{"collection scan", bson.D{{Key: "winningPlan", Value: bson.D{{Key: "stage", Value: "COLLSCAN"}}}}, "COLLSCAN", "", "", 0},
		{"update", bson.D{{Key: "winningPlan", Value: bson.D{{Key: "stage", Value: "UPDATE"}, {Key: "inputStage", Value: fetch}}}}, "IXSCAN", "doc_id_1", "", 0},
		{"express", bson.D{{Key: "winningPlan", Value: bson.D{{Key: "stage", Value: "EXPRESS_IXSCAN"}, {Key: "indexName", Value: "doc_id_1"}}}}, "EXPRESS_IXSCAN", "doc_id_1", "", 0},
		{"slot-based engine", bson.D{{Key: "winningPlan", Value: bson.D{{Key: "queryPlan", Value: fetch}, {Key: "slotBasedPlan", Value: bson.D{}}}}}, "IXSCAN", "doc_id_1", "", 0},
		{"or of index scans", bson.D{{Key: "winningPlan", Value: bson.D{{Key: "stage", Value: "OR"}, {Key: "inputStages", Value: bson.A{ix, ix}}}}}, "IXSCAN", "doc_id_1", "", 0},
		{"one shard", bson.D{{Key: "winningPlan", Value: bson.D{{Key: "stage", Value: "SINGLE_SHARD"},
			{Key: "shards", Value: bson.A{shard("s0", fetch)}}}}}, "IXSCAN", "doc_id_1", "SINGLE_SHARD", 1},
		{"every shard", bson.D{{Key: "winningPlan", Value: bson.D{{Key: "stage", Value: "SHARD_MERGE"},
			{Key: "shards", Value: bson.A{shard("s0", fetch), shard("s1", fetch), shard("s2", fetch)}}}}}, "IXSCAN", "doc_id_1", "SHARD_MERGE", 3},
		{"ferretdb", bson.D{{Key: "Plan", Value: bson.A{"id=2 parent=0 notused=0 detail=SCAN msg_e08"}}}, "", "", "id=2 parent=0 notused=0 detail=SCAN msg_e08", 0},
		{"no winning plan", bson.D{{Key: "other", Value: 1}}, "", "", "no winningPlan in the explain answer", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := bson.Marshal(bson.D{{Key: "queryPlanner", Value: tt.qp}})
			if err != nil {
				t.Fatal(err)
			}
			stage, index, shards, detail := readPlan(raw)
			if stage != tt.stage || index != tt.index || shards != tt.shards || detail != tt.det {
				t.Errorf("readPlan = %q %q %d %q, want %q %q %d %q", stage, index, shards, detail, tt.stage, tt.index, tt.shards, tt.det)
			}
		})
	}
}

// recordedAnswers reads the answers of FerretDB v2 on PostgreSQL with the
// DocumentDB extension (a MongoDB-compatible engine) to explain
// (store/recordingtest): each answer as BSON, or the error the engine gave
// instead. queryPlanner.Plan is PostgreSQL's plan tree, and explain of an
// update is refused (NotImplemented).
func recordedAnswers(t *testing.T) map[string]bson.Raw {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(recordingtest.Dir(t, recordingtest.Engine), "explain-ferretdb-v2.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	out := map[string]bson.Raw{}
	for name, answer := range all {
		var raw bson.Raw
		if err := bson.UnmarshalExtJSON(answer, false, &raw); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = raw
	}
	return out
}

// TestReadPlanOfPostgreSQLEngine: the engine's plan tree says which index
// a query uses (doc_id_1 under a Bitmap Heap Scan) and when it reads the
// whole table (Seq Scan, a scan as COLLSCAN is).
func TestReadPlanOfPostgreSQLEngine(t *testing.T) {
	answers := recordedAnswers(t)
	tests := []struct {
		answer, stage, index, detail string
		scans                        bool
	}{
		{"find msg doc_id $in", "Bitmap Index Scan", "doc_id_1", "PostgreSQL plan: Bitmap Heap Scan > Bitmap Index Scan", false},
		{"find msg doc_id prefix range", "Bitmap Index Scan", "doc_id_1", "PostgreSQL plan: Bitmap Heap Scan > Bitmap Index Scan", false},
		{"aggregate msg $slice", "Bitmap Index Scan", "doc_id_1", "PostgreSQL plan: Bitmap Heap Scan > Bitmap Index Scan", false},
		{"find seq_user user_id conversation_id $in", "Seq Scan", "", "PostgreSQL plan: Seq Scan", true},
	}
	for _, tt := range tests {
		t.Run(tt.answer, func(t *testing.T) {
			raw, ok := answers[tt.answer]
			if !ok {
				t.Fatalf("the recording has no answer %q", tt.answer)
			}
			stage, index, shards, detail := readPlan(raw)
			if stage != tt.stage || index != tt.index || shards != 0 || detail != tt.detail {
				t.Errorf("readPlan = %q %q %d %q, want %q %q 0 %q", stage, index, shards, detail, tt.stage, tt.index, tt.detail)
			}
			if got := (store.PlanReport{Stage: stage}).Scans(); got != tt.scans {
				t.Errorf("Scans() = %v, want %v", got, tt.scans)
			}
		})
	}
}

// TestExplainOnEngineThatRefusesUpdates: an engine that answers every
// find with its plan and refuses to explain updates gets a plan for each
// find shape, no error line, and its update shapes counted once; after the
// first refusal no other update is sent to explain.
func TestExplainOnEngineThatRefusesUpdates(t *testing.T) {
	answers := recordedAnswers(t)
	var refusal struct{ Error string }
	if err := bson.Unmarshal(answers["update msg doc_id $set"], &refusal); err != nil || !strings.Contains(refusal.Error, "NotImplemented") {
		t.Fatalf("the recorded update answer is not a NotImplemented refusal: %q %v", refusal.Error, err)
	}
	updates, explained := 0, 0
	for _, s := range shapes() {
		if s.update() {
			updates++
		}
	}
	plans := explainShapes(shapes(), func(s shape) (bson.Raw, error) {
		if s.update() {
			explained++
			return nil, mongo.CommandError{Code: 238, Name: "NotImplemented", Message: "explain for update command is not supported"}
		}
		if s.cmd[0].Value == bucket.CollMsg {
			return answers["find msg doc_id $in"], nil
		}
		return answers["find seq_user user_id conversation_id $in"], nil
	})
	if updates == 0 || plans.UpdatesUnexplained != updates || explained != 1 {
		t.Errorf("%d of %d update shapes counted unexplained, %d sent to explain; want all counted, one sent", plans.UpdatesUnexplained, updates, explained)
	}
	if len(plans.Plans) != len(shapes())-updates {
		t.Errorf("%d plans for %d find shapes", len(plans.Plans), len(shapes())-updates)
	}
	for _, p := range plans.Plans {
		if p.Err != nil {
			t.Errorf("%s: %v", p.Shape, p.Err)
		}
		if strings.Contains(p.Shape, " msg ") && p.Index != "doc_id_1" {
			t.Errorf("%s: stage %q index %q, want the doc_id index", p.Shape, p.Stage, p.Index)
		}
	}
}
