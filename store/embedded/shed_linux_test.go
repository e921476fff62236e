package embedded

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store/bucket"
)

// TestLongReadsKeepFewFilePagesMapped reads every bucket of a file twice
// the shedding bound, as export and dump do, and checks that the pages of
// the file left mapped into the process stay near the bound rather than
// the file's size (each read maps its pages, and fault-around maps their
// neighbours, until the handle closes).
func TestLongReadsKeepFewFilePagesMapped(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "long.db")
	b, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	const buckets = 3800 // about 215 MB of 57 KB buckets (bbolt pages included)
	for i := range int64(buckets) {
		if err := b.InsertBucket(ctx, fullBucket("sg_long", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() < 2*shedAbove {
		t.Fatalf("file of %v bytes (%v), want over %d", fi.Size(), err, 2*shedAbove)
	}
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close(ctx)
	before := mappedResident(t, path)
	ids, err := ro.BucketIDs(ctx, "sg_long")
	if err != nil || len(ids) != buckets {
		t.Fatalf("%d bucket IDs (%v), want %d", len(ids), err, buckets)
	}
	n := 0
	err = ro.ScanRaw(ctx, bucket.CollMsg, "sg_long:", func(bson.Raw) error { n++; return nil })
	if err != nil || n != buckets {
		t.Fatalf("scanned %d buckets (%v), want %d", n, err, buckets)
	}
	grown := mappedResident(t, path) - before
	if limit := int64(shedAbove + 16<<20); grown > limit {
		t.Fatalf("reading %d buckets left %d MiB more of the file mapped, want at most %d MiB", buckets, grown>>20, limit>>20)
	}
}

// mappedResident is how much of path's file is mapped into this process
// (the Rss of its mappings in /proc/self/smaps).
func mappedResident(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	inode := strconv.FormatUint(fi.Sys().(*syscall.Stat_t).Ino, 10)
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	in := false
	for _, line := range strings.Split(string(smaps), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":"):
			in = f[4] == inode
		case in && len(f) >= 2 && f[0] == "Rss:":
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			total += kb << 10
		}
	}
	return total
}
