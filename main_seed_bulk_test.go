package main

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/mongostore"
	"github.com/chatlens/chatlens/store/mongotest"
)

// Issue 28, item 5: seeding MongoDB wrote one small document after another
// (5000 conversations took 7 min 21 s on a real engine, 11 s embedded).
// The documents of many conversations go a few requests at a time, and
// the seed says how many it sent; --stats counts the same.
func TestSeedIntoMongoDBSendsFewRequests(t *testing.T) {
	t.Parallel()
	uri, real := mongotest.URI(t)
	skipSlowBulk(t, real)
	args := []string{"seed", "--mongo-uri", uri, "--db", mongotest.Database(t, uri), "--audit-log", t.TempDir() + "/audit.log",
		"--conversations", "40", "--messages", "20", "--long", "0", "--stats"}
	var out, errs bytes.Buffer
	if code := runArgs(args, &out, &errs); code != 0 {
		t.Fatalf("seed: exit %d: %s", code, errs.String())
	}
	m := regexp.MustCompile(`chatlens: seeded .* 40 conversations, \d+ messages .* in [^,]+, (\d+) requests\n`).FindStringSubmatch(errs.String())
	if m == nil {
		t.Fatalf("seed said %q; want the requests it sent", errs.String())
	}
	sent, _ := strconv.Atoi(m[1])
	trips, _ := statsOf(t, "seed", errs.String())
	// Opening, the occupied check and the indexes, then a few requests a
	// flush: one write at a time it was over 600.
	if sent > 60 || int64(sent) != trips {
		t.Errorf("seed of 40 conversations sent %d requests (--stats: %d round trips); want at most 60, the same in both", sent, trips)
	}
}

// A bulk seed into MongoDB killed outright (SIGKILL) part way through the
// long group (several flushes) leaves no seq above its seq document: each
// flush raises the seq documents before it sends a bucket.
func TestKilledBulkSeedLeavesNoSeqAboveTheSeqDocument(t *testing.T) {
	t.Parallel()
	uri, real := mongotest.URI(t)
	skipSlowBulk(t, real)
	db := mongotest.Database(t, uri)
	b, err := mongostore.Open(t.Context(), uri, db, mongostore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	p := startChatlens(t, nil, "seed", "--mongo-uri", uri, "--db", db, "--audit-log", t.TempDir()+"/audit.log",
		"--conversations", "20", "--messages", "20", "--long", "30000")
	p.waitFor(t, "the long group's first flush", func() bool { // of 4 MiB, then more
		ids, err := b.BucketIDs(context.Background(), demo.LongGroupID)
		return err == nil && len(ids) > 0
	})
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	p.exitWithin(t, 30*time.Second)
	out, _ := exec.Command(chatlensBinary(t), "check", "--mongo-uri", uri, "--db", db).CombinedOutput()
	if !strings.Contains(string(out), "summary:") || strings.Contains(string(out), "max_seq") {
		t.Errorf("after kill -9 of a bulk seed, check finds:\n%s", out)
	}
	t.Log(regexp.MustCompile(`summary: .*`).FindString(string(out)))
}

// skipSlowBulk skips a whole seed's bulk requests on the in-process
// MongoDB-wire server under the race detector: seen in CI, beside the other
// packages' tests it answered a bulk write after the 15 s request timeout
// and the seed failed before anything was measured. store/demo's
// TestSeedInBulkOnMongoDB (smaller) still runs there.
func skipSlowBulk(t *testing.T, real bool) {
	if raceBuild && !real {
		t.Skip("the in-process MongoDB-wire server is too slow under -race for a seed's bulk requests; run without -race or with CHATLENS_TEST_MONGO_URI")
	}
}
