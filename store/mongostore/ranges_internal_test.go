package mongostore

import (
	"fmt"
	"reflect"
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
		`{"$eq": ["$doc_id","sg_g:0"]}`, `{"$numberInt":"50"},{"$numberInt":"50"}]}`,
		`{"$eq": ["$doc_id","sg_g:2"]}`, `{"$numberInt":"0"},{"$numberInt":"50"}]}`,
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

// TestSliceRangesNeverSlicesANonArray: one bucket whose msgs is not an
// array must not fail the read of the others. FerretDB v2 with DocumentDB
// evaluates both branches of $cond (and MongoDB's $slice refuses a
// non-array too), so the pipeline is evaluated here the eager way, with a
// $slice that fails as theirs does: on every form of msgs it must not fail,
// and must cut an array and leave anything else as it is.
func TestSliceRangesNeverSlicesANonArray(t *testing.T) {
	q := sliceRanges([]store.SlotRange{{DocID: "sg_g:0", First: 1, N: 2}, {DocID: "sg_g:1", First: 0, N: 100}})
	addFields, ok := q.pipeline[1].(bson.D)
	if !ok || addFields[0].Key != "$addFields" {
		t.Fatalf("second stage is %v, want $addFields", q.pipeline[1])
	}
	msgsExpr := addFields[0].Value.(bson.D)[0].Value
	array := bson.A{"a", "b", "c", "d"}
	for _, tt := range []struct {
		name string
		msgs any
		want any
	}{
		{"array", array, bson.A{"b", "c"}},
		{"document", bson.D{{Key: "0", Value: "a"}}, bson.D{{Key: "0", Value: "a"}}},
		{"string", "msgs", "msgs"},
		{"null", nil, nil},
		{"missing", missing{}, missing{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := map[string]any{"doc_id": "sg_g:0", "msgs": tt.msgs}
			got, err := evalEagerly(msgsExpr, doc)
			if err != nil {
				t.Fatalf("the aggregation fails on a bucket whose msgs is %s: %v", tt.name, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("msgs %v became %v, want %v", tt.msgs, got, tt.want)
			}
			doc["doc_id"] = "sg_g:1" // asked whole: never cut
			if got, err := evalEagerly(msgsExpr, doc); err != nil || !reflect.DeepEqual(got, tt.msgs) {
				t.Errorf("a whole bucket's msgs %v became %v (%v)", tt.msgs, got, err)
			}
		})
	}
}

// missing is a field the document does not have.
type missing struct{}

// evalEagerly evaluates the aggregation operators sliceRanges uses, every
// argument before the operator, as DocumentDB does; $slice refuses a first
// argument that is not an array (null or missing gives null), as DocumentDB
// and MongoDB do.
func evalEagerly(expr any, doc map[string]any) (any, error) {
	switch e := expr.(type) {
	case string:
		if strings.HasPrefix(e, "$") {
			if v, ok := doc[e[1:]]; ok {
				return v, nil
			}
			return missing{}, nil
		}
		return e, nil
	case bson.A:
		out := bson.A{}
		for _, x := range e {
			v, err := evalEagerly(x, doc)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case bson.D:
		if len(e) != 1 || !strings.HasPrefix(e[0].Key, "$") {
			return e, nil
		}
		op, arg := e[0].Key, e[0].Value
		if op == "$switch" {
			return evalSwitch(arg.(bson.D), doc)
		}
		v, err := evalEagerly(arg, doc)
		if err != nil {
			return nil, err
		}
		args, _ := v.(bson.A)
		switch op {
		case "$isArray":
			_, isArray := v.(bson.A)
			return isArray, nil
		case "$eq":
			return reflect.DeepEqual(args[0], args[1]), nil
		case "$cond":
			if args[0] == true {
				return args[1], nil
			}
			return args[2], nil
		case "$slice":
			arr, ok := args[0].(bson.A)
			if args[0] == nil || args[0] == (missing{}) {
				return nil, nil
			}
			if !ok {
				return nil, fmt.Errorf("(DollarSliceInvalidInput) First argument to $slice must be an array, but is %T", args[0])
			}
			from, n := min(int(args[1].(int)), len(arr)), int(args[2].(int))
			return arr[from:min(from+n, len(arr))], nil
		}
		return nil, fmt.Errorf("operator %s not known here", op)
	}
	return expr, nil
}

// evalSwitch evaluates every case and every then, then picks.
func evalSwitch(arg bson.D, doc map[string]any) (any, error) {
	var picked any
	found := false
	for _, field := range arg {
		switch field.Key {
		case "branches":
			for _, br := range field.Value.(bson.A) {
				b := br.(bson.D)
				c, err := evalEagerly(b[0].Value, doc)
				if err != nil {
					return nil, err
				}
				then, err := evalEagerly(b[1].Value, doc)
				if err != nil {
					return nil, err
				}
				if c == true && !found {
					picked, found = then, true
				}
			}
		case "default":
			d, err := evalEagerly(field.Value, doc)
			if err != nil {
				return nil, err
			}
			if !found {
				picked, found = d, true
			}
		}
	}
	return picked, nil
}
