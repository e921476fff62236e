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

// TestSlotReadsAgainKeepTheirPagesMapped reads one slot of every bucket of
// a store far smaller than the shedding bound, then one bucket's slots
// over and over, as the bench's random reads and the inspector do, in a
// process that maps more file pages than the bound (another file, as the
// bench's flat store is). Reading pages already mapped maps nothing new,
// so the store's pages must stay mapped: counted a fault per read, the
// reads shed them every 1,536 reads and the next reads faulted them in
// again.
func TestSlotReadsAgainKeepTheirPagesMapped(t *testing.T) {
	ctx := context.Background()
	const buckets = 100
	b, path := smallStoreBesideMappedFile(t, "sg_slots", buckets)
	read := func(index int64, slot int) {
		t.Helper()
		raw, sliced, err := b.FindSlots(ctx, bucket.DocID("sg_slots", index), slot, 1)
		if err != nil || !sliced || raw == nil {
			t.Fatalf("slot %d of bucket %d: sliced %v, %v", slot, index, sliced, err)
		}
	}
	for i := range int64(buckets) {
		read(i, 50)
	}
	before := mappedResident(t, path)
	for i := range 2 * shedAbove / faultAround {
		read(0, i%bucket.BucketSize)
	}
	if after := mappedResident(t, path); after < before/2 {
		t.Fatalf("reading slots already read left %d KiB of the file mapped, %d KiB before", after>>10, before>>10)
	}
}

// TestWritesOfASmallStoreKeepItsPagesMapped rewrites every bucket of a
// store far smaller than the shedding bound, as a bench's or a seed's
// writes do (each reads the stored bucket first), in a process that maps
// more file pages than the bound. However often a bucket is rewritten, the
// file maps no more than its size, so its pages must stay mapped for the
// reads after: counted by the bytes each write read, 100 buckets written
// 20 times passed the bound, shed the file, and every read after it
// faulted its pages in again (the bench's 1,000 random reads: 825 faults,
// 10 when counted by windows).
func TestWritesOfASmallStoreKeepItsPagesMapped(t *testing.T) {
	ctx := context.Background()
	const buckets = 100
	b, path := smallStoreBesideMappedFile(t, "sg_writes", buckets)
	readAll := func() {
		t.Helper()
		for i := range int64(buckets) {
			if raw, _, err := b.FindSlots(ctx, bucket.DocID("sg_writes", i), 50, 1); err != nil || raw == nil {
				t.Fatalf("slot 50 of bucket %d: %v", i, err)
			}
		}
	}
	readAll()
	for round := range 20 {
		for i := range int64(buckets) {
			ok, err := b.SetSlotField(ctx, bucket.DocID("sg_writes", i), round, "msg.status", int32(bucket.StatusSent))
			if err != nil || !ok {
				t.Fatalf("rewriting bucket %d: matched %v, %v", i, ok, err)
			}
		}
		readAll()
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := b.db.shed.sheds; n != 0 {
		t.Fatalf("rewriting and reading a %d KiB store shed its pages %d times: each read after faulted them in again", fi.Size()>>10, n)
	}
}

// smallStoreBesideMappedFile is a store of buckets full buckets of cid, far
// under the shedding bound, in a process that maps more than the bound of
// another file (as the bench's flat store does), and the store's path.
func smallStoreBesideMappedFile(t *testing.T, cid string, buckets int64) (*Backend, string) {
	t.Helper()
	dir := t.TempDir()
	holdFilePagesMapped(t, filepath.Join(dir, "other"), shedAbove+16<<20)
	path := filepath.Join(dir, "store.db")
	b, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	for i := range buckets {
		if err := b.InsertBucket(context.Background(), fullBucket(cid, i)); err != nil {
			t.Fatal(err)
		}
	}
	return b, path
}

// holdFilePagesMapped maps a file of size bytes at path and reads every
// page of it, for the test's life.
func holdFilePagesMapped(t *testing.T, path string, size int) {
	t.Helper()
	if err := os.WriteFile(path, make([]byte, size), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(m) })
	sum := 0
	for i := 0; i < size; i += os.Getpagesize() {
		sum += int(m[i])
	}
	if sum != 0 {
		t.Fatal("a file of zeros read as non-zero")
	}
}
