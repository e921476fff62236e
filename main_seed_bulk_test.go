package main

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"

	"github.com/chatlens/chatlens/store/mongotest"
)

// Issue 28, item 5: seeding MongoDB wrote one small document after another
// (5000 conversations took 7 min 21 s on a real engine, 11 s embedded).
// The documents of many conversations go a few requests at a time, and
// the seed says how many it sent; --stats counts the same.
func TestSeedIntoMongoDBSendsFewRequests(t *testing.T) {
	uri, _ := mongotest.URI(t)
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
