package mongostore

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
)

// TestSliceRangesCutsOnlyEdgeBuckets: the aggregation a range read sends
// asks every bucket by doc_id in one $match and cuts only the partly asked
// ones, each with its own $slice; a whole bucket asked is left whole. The
// in-process FerretDB reads whole buckets instead (the contract suite), so
// the pipeline is checked as built.
func TestSliceRangesCutsOnlyEdgeBuckets(t *testing.T) {
	q := sliceRanges([]store.SlotRange{{DocID: "sg_g:0", First: 50, N: 50}, {DocID: "sg_g:1", First: 0, N: 100}, {DocID: "sg_g:2", First: 0, N: 50}})
	raw, err := bson.Marshal(bson.D{{Key: "pipeline", Value: q.pipeline}})
	if err != nil {
		t.Fatal(err)
	}
	got := bson.Raw(raw).String()
	for _, want := range []string{
		`{"$match": {"doc_id": {"$in": ["sg_g:0","sg_g:1","sg_g:2"]}}}`,
		`{"$eq": ["$doc_id","sg_g:0"]}`, `{"$slice": ["$msgs",{"$numberInt":"50"},{"$numberInt":"50"}]}`,
		`{"$eq": ["$doc_id","sg_g:2"]}`, `{"$slice": ["$msgs",{"$numberInt":"0"},{"$numberInt":"50"}]}`,
		`"default": "$msgs"`, `{"$isArray": "$msgs"}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("pipeline %s\nlacks %s", got, want)
		}
	}
	if strings.Contains(got, `"sg_g:1"]}`) {
		t.Errorf("the whole bucket asked is cut: %s", got)
	}
}
