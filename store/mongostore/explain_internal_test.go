package mongostore

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
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
