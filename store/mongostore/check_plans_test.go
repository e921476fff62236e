package mongostore_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/check"
	"github.com/chatlens/chatlens/store/check/checktest"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
	"github.com/chatlens/chatlens/store/testkit"
)

// TestCheckReportsPlansOnFerretDB: on the in-process FerretDB, whose
// explain answers in its own format, check's report still has a line per
// query shape. (Here, not in package check: linking FerretDB into check's
// test binary would slow its fuzz targets a hundredfold.)
func TestCheckReportsPlansOnFerretDB(t *testing.T) {
	b := fresh(t)
	testkit.Insert(t, b, bucket.CollMsg, checktest.CleanBucket())
	r, err := check.Run(t.Context(), store.New(b, store.Options{}), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r.Write(&out)
	t.Logf("\n%s", out.String())
	if r.PlansErr != nil {
		t.Errorf("explain failed: %v", r.PlansErr)
	}
	lines := strings.Count(out.String(), "\nplan: ")
	if r.Plans == nil || lines != len(r.Plans.Plans) || lines < 8 {
		t.Errorf("%d plan lines, want one per query shape (8):\n%s", lines, out.String())
	}
	if !strings.Contains(out.String(), "shard key: msg is not sharded") {
		t.Errorf("no shard key line:\n%s", out.String())
	}
}

// TestCheckSaysHowSlotsAreRead: check asks the server once whether it
// cuts a bucket to the slots asked, and says so; the in-process FerretDB
// does not, so the inspector and quotes read whole buckets there.
func TestCheckSaysHowSlotsAreRead(t *testing.T) {
	uri, real := mongotest.URI(t)
	b, err := mongostore.Open(t.Context(), uri, mongotest.Database(t, uri), mongostore.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	testkit.Insert(t, b, bucket.CollMsg, checktest.CleanBucket())
	r, err := check.Run(t.Context(), store.New(b, store.Options{}), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r.Write(&out)
	want := store.SlotsWholeBucket
	if real {
		want = store.SlotsProjected // MongoDB has had the $slice projection since 1.x
	}
	if !strings.Contains(out.String(), want.String()+"\n") {
		t.Errorf("check on %s does not say %q:\n%s", b.Describe(), want, out.String())
	}
}
