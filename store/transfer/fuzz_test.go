package transfer

import (
	"context"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
)

// discard is a backend that accepts any document and keeps none.
type discard struct{ store.Backend }

func (discard) InsertRaw(_ context.Context, _ string, docs []bson.Raw, _ store.RawMode) (store.RawResult, error) {
	return store.RawResult{Inserted: len(docs)}, nil
}

// FuzzImport: any input gives a count and at most one safe error line,
// never a panic.
func FuzzImport(f *testing.F) {
	f.Add(`{"doc_id":"si_a_b:0","msgs":[{"msg":null,"revoke":null,"del_list":[],"is_read":false}]}` + "\r\n")
	f.Add(`{"n":{"$numberLong":"9"},"d":{"$numberDouble":"-0.0"},"t":{"$date":"2024-01-01T00:00:00Z"}}`)
	f.Add("[{\"a\":1},\n{\"b\":{\"$oid\":\"65a1b2c3d4e5f60718293a4b\"}}]")
	f.Add("\ufeff\n\n{\"x\": \x1b]0;t\x07}")
	f.Fuzz(func(t *testing.T, input string) {
		res, err := Import(context.Background(), discard{}, bucket.CollMsg, strings.NewReader(input), store.RawInsert, Hooks{})
		if res.Stored() < 0 {
			t.Fatalf("count %d", res.Stored())
		}
		if err != nil && strings.ContainsAny(err.Error(), "\n\r\x1b\x07") {
			t.Fatalf("error is not one safe line: %q", err.Error())
		}
	})
}
