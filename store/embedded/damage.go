package embedded

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// ErrDamaged is returned by Open for a file that cannot be read safely:
// reading it through bbolt's memory map would crash the process (SIGBUS)
// instead of failing; and by a read or write that meets such damage in a
// file opened before it (see guarded).
var ErrDamaged = errors.New("the store is damaged")

// IsFault tells whether a panic came from reading the store's file: a
// fault on its memory map (a nil dereference faults below 64 KiB, Linux's
// lowest mappable address, and stays a crash), or a panic raised by bbolt
// itself, such as its page assertions. Call it from the deferred function
// that recovered r: it reads the panicking stack.
func IsFault(r any) bool {
	if fault, ok := r.(interface{ Addr() uintptr }); ok {
		return fault.Addr() >= 64<<10
	}
	// The frame after the runtime's panic is the function that panicked.
	_, after, ok := strings.Cut(string(debug.Stack()), "\npanic(")
	lines := strings.SplitN(after, "\n", 4)
	return ok && len(lines) > 2 && strings.HasPrefix(lines[2], "go.etcd.io/bbolt")
}

// damageError is a panic of bbolt's reading a damaged file, as an error.
type damageError struct{ err error }

func (e *damageError) Error() string { return e.err.Error() }
func (e *damageError) Unwrap() error { return e.err }

// guarded runs fn so that a damaged file fails it instead of crashing the
// process. bbolt reads the file through a memory map: a page cut off (the
// file truncated under a running program, a backup copied over it) faults
// with SIGBUS, and a page overwritten trips bbolt's assertions. The fault
// becomes a panic of this goroutine (SetPanicOnFault is per goroutine, and
// the UI reads on goroutines of its own), and the panic a *damageError
// saying what checkFile finds wrong with the file, as a store that cannot
// be opened says it. Other panics are bugs and stay panics.
func guarded(path string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if !IsFault(r) {
			panic(r)
		}
		switch cerr := checkFile(path, true); {
		case errors.Is(cerr, ErrDamaged):
			err = &damageError{cerr}
			return
		case cerr != nil: // emptied, replaced by another file
			err = &damageError{fmt.Errorf("%w: %w", ErrDamaged, cerr)}
			return
		}
		err = &damageError{fmt.Errorf("%w: %s: %v", ErrDamaged, path, r)}
	}()
	return fn()
}

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
	best, found := currentMeta(f, size)
	switch {
	case best == nil && found:
		return fmt.Errorf("%w: %s: both bbolt meta pages (its first two pages) are unreadable, so no page can be found "+
			"(restore it from a copy; bbolt's `bbolt surgery` can rewrite a meta page by hand)", ErrDamaged, path)
	case best == nil:
		return fmt.Errorf("%s is not a chatlens store (no bbolt meta page in its first pages)", path)
	}
	if need := int64(best.pgid) * best.pageSize; need > size || need <= 0 {
		return fmt.Errorf("%w: cut short, %s is %d bytes but its pages run to byte %d (restore it from a copy)",
			ErrDamaged, path, size, need)
	}
	return nil
}

// currentMeta is the valid meta page with the higher txid. As bbolt does,
// when page 0 is unreadable (zeroed, overwritten) the second meta is
// looked for one page in, at every page size bbolt allows, so a store with
// one meta page lost opens from the other. found reports a page that
// carries bbolt's magic but fails its checksum: a bbolt file, damaged.
func currentMeta(f io.ReaderAt, size int64) (best *boltMeta, found bool) {
	first, ok := readMeta(f, 0)
	found = hasMagic(f, 0)
	if ok {
		best = &first
		// The second meta page starts one page in.
		if second, ok := readMeta(f, first.pageSize); ok && second.txid > first.txid {
			best = &second
		}
		return best, true
	}
	for pos := int64(1024); pos <= 1024<<14 && pos < size; pos <<= 1 {
		if second, ok := readMeta(f, pos); ok && second.pageSize == pos {
			return &second, true
		}
		found = found || hasMagic(f, pos)
	}
	return nil, found
}

// hasMagic tells whether a page at offset starts a bbolt meta, valid or not.
func hasMagic(r io.ReaderAt, offset int64) bool {
	var buf [boltPageHeader + 4]byte
	_, err := r.ReadAt(buf[:], offset)
	return err == nil && binary.NativeEndian.Uint32(buf[boltPageHeader:]) == boltMagic
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
