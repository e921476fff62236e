package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
)

// ErrDamaged is returned by Open for a file that cannot be read safely:
// reading it through bbolt's memory map would crash the process (SIGBUS)
// instead of failing.
var ErrDamaged = errors.New("the store is damaged")

// bbolt's on-disk meta page (go.etcd.io/bbolt/internal/common: Page, Meta):
// a 16-byte page header, then magic, version, page size and flags (uint32
// each), the root bucket (pgid, sequence), the freelist pgid, the high water
// mark pgid, the txid, and an FNV-64a checksum of the bytes before it. Pages
// 0 and 1 hold one meta each; the valid one with the higher txid is current.
const (
	boltPageHeader = 16
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	metaPgidAt     = 40 // offsets within the meta
	metaTxidAt     = 48
	metaSumAt      = 56
)

// boltMeta is what checkFile needs of one meta page.
type boltMeta struct {
	pageSize   int64
	pgid, txid uint64
}

// checkFile refuses a file that bbolt would crash on: one shorter than the
// pages its current meta page says it holds (a truncated copy, a disk that
// filled up). A file that does not exist is left to bbolt to create, and so
// is an empty one when it may be written (bbolt lays it out); read-only, an
// empty file is named for what it is.
func checkFile(path string, readOnly bool) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open embedded store %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("open embedded store %s: %w", path, err)
	}
	size := fi.Size()
	switch {
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a file", path)
	case size == 0 && readOnly:
		return fmt.Errorf("%s is an empty file (0 bytes), not a chatlens store", path)
	case size == 0:
		return nil
	}
	var best *boltMeta
	first, ok := readMeta(f, 0)
	if ok {
		best = &first
		// The second meta page starts one page in.
		if second, ok := readMeta(f, first.pageSize); ok && second.txid > first.txid {
			best = &second
		}
	}
	if best == nil {
		return fmt.Errorf("%s is not a chatlens store (no valid bbolt meta page in its first 4 KiB)", path)
	}
	if need := int64(best.pgid) * best.pageSize; need > size || need <= 0 {
		return fmt.Errorf("%w: %s is %d bytes but holds pages up to byte %d (cut short: restore it from a copy)",
			ErrDamaged, path, size, need)
	}
	return nil
}

// readMeta reads and validates the meta page at offset.
func readMeta(r io.ReaderAt, offset int64) (boltMeta, bool) {
	var buf [boltPageHeader + metaSumAt + 8]byte
	if _, err := r.ReadAt(buf[:], offset); err != nil {
		return boltMeta{}, false
	}
	m := buf[boltPageHeader:]
	le := binary.NativeEndian // bbolt writes its pages in the machine's byte order
	h := fnv.New64a()
	h.Write(m[:metaSumAt])
	if le.Uint32(m[0:]) != boltMagic || le.Uint32(m[4:]) != boltVersion || le.Uint64(m[metaSumAt:]) != h.Sum64() {
		return boltMeta{}, false
	}
	pageSize := int64(le.Uint32(m[8:]))
	if pageSize < 1024 || pageSize > 1<<24 {
		return boltMeta{}, false
	}
	return boltMeta{pageSize: pageSize, pgid: le.Uint64(m[metaPgidAt:]), txid: le.Uint64(m[metaTxidAt:])}, true
}
