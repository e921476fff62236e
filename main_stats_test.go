package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chatlens/chatlens/store/demo"
	"github.com/chatlens/chatlens/store/mongotest"
)

// statsOf reads --stats' line from stderr: round trips and bytes read.
func statsOf(t *testing.T, what, stderr string) (trips, read int64) {
	t.Helper()
	for _, line := range strings.Split(stderr, "\n") {
		var read string
		if _, err := fmt.Sscanf(line, "chatlens: %d round trips, %s bytes read;", &trips, &read); err == nil {
			n, err := strconv.ParseInt(strings.ReplaceAll(read, ",", ""), 10, 64)
			if err != nil {
				t.Fatalf("%s --stats: bytes %q in %q", what, read, line)
			}
			return trips, n
		}
	}
	t.Fatalf("%s --stats printed no round trips and bytes read: %q", what, stderr)
	return 0, 0
}

// readingCommands are the commands that read, each with --stats.
var readingCommands = [][]string{
	{"conversations", "--as", "alice", "--stats"},
	{"dump", "--conversation", demo.ShowcaseSingleID, "--as", "alice", "--to", "30", "--stats"},
	{"find", "--client-msg-id", "no-such-message", "--stats"},
	{"check", "--conversation", demo.ShowcaseSingleID, "--stats"},
	{"export", "--conversation", demo.ShowcaseSingleID, "--stats"},
}

// Every command that reads says, with --stats, how many round trips it
// made and how many bytes it read, on the embedded store and on MongoDB: a
// find that found nothing has read as much, and says so too. A dump of 30
// seqs reads less than the export of the whole conversation (the slots it
// prints, through the slot index).
func TestReadingCommandsPrintStats(t *testing.T) {
	t.Parallel()
	s := seeded(t)
	embedded := func(args ...string) result { return s.chatlens(t, args...) }
	uri, _ := mongotest.URI(t)
	db := mongotest.Database(t, uri)
	mongo := func(args ...string) result {
		full := append([]string{args[0], "--mongo-uri", uri, "--db", db, "--audit-log", s.audit}, args[1:]...)
		var out, errs bytes.Buffer
		return result{runArgs(full, &out, &errs), out.String(), errs.String()}
	}
	if r := mongo("seed", "--conversations", "2", "--messages", "60", "--long", "0", "--seed", "2"); r.code != 0 {
		t.Fatalf("seed: exit %d: %s", r.code, r.stderr)
	}
	for name, run := range map[string]func(...string) result{"embedded": embedded, "mongodb": mongo} {
		read := map[string]int64{}
		for _, args := range readingCommands {
			r := run(args...)
			what := name + " " + args[0]
			trips, n := statsOf(t, what, r.stderr)
			if trips < 1 || n < 1 {
				t.Errorf("%s --stats: %d round trips, %d bytes read", what, trips, n)
			}
			read[args[0]] = n
		}
		// FerretDB v1 has no $slice: its dump reads whole buckets.
		if name == "embedded" && read["dump"] >= read["export"] {
			t.Errorf("%s: a dump of 30 seqs read %d bytes, the export of the conversation %d", name, read["dump"], read["export"])
		}
	}
}
