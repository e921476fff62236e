package embedded

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// file is the bbolt file behind a Backend, opened one of two ways.
//
// Exclusive (the default): one handle for the Backend's life, holding the
// file lock all along (read-write: exclusive, read-only: shared).
//
// Shared: no handle while idle. Each read opens the file read-only under a
// shared lock and each write read-write under the exclusive lock, waiting
// up to the timeout for other processes, and closes it when done; reads
// running at once in this process share one handle. bbolt locks the whole
// file for as long as a handle is open, so this is how a UI left open lets
// other chatlens processes read and write the same file between its own
// transactions, and how it sees what they wrote on its next read.
type file struct {
	path    string
	opts    bolt.Options
	timeout time.Duration
	shared  bool
	// commitEach: with NoSync, groups still end at Flush (Options.CommitEach).
	commitEach bool

	exclusive *bolt.DB // the handle of an exclusive file

	// Grouped writes (exclusive, NoSync): see UpdateGrouped.
	gmu     sync.Mutex
	group   *bolt.Tx
	grouped int   // writes in group
	failed  error // a group commit that failed: every later write fails

	// writes counts the write calls that returned success, committed how
	// many of them a commit has made part of the file (see Committed).
	writes, committed atomic.Uint64

	shed pageShedder // drops mapped file pages a long run touched

	requests  atomic.Int64 // transactions run (View, Update, grouped writes)
	bytesRead atomic.Int64 // stored bytes handed out (read)

	turn    sync.RWMutex // shared: reads of this process run together, a write alone
	mu      sync.Mutex   // guards reader and readers
	reader  *bolt.DB
	readers int
}

// openFile opens path the way opts say and, when not shared, keeps it open.
func openFile(path string, opts bolt.Options, shared, commitEach bool) (*file, error) {
	f := &file{path: path, opts: opts, timeout: opts.Timeout, shared: shared, commitEach: commitEach}
	if shared {
		return f, nil
	}
	db, err := f.open(opts.ReadOnly)
	if err != nil {
		return nil, err
	}
	f.exclusive = db
	return f, nil
}

// open opens one handle, waiting for the lock another process holds. A
// shared file is opened again for each transaction, so it is checked as
// Open checks it each time: cut short since (a backup copied over it while
// a UI has it open), bbolt would fault reading it.
func (f *file) open(readOnly bool) (*bolt.DB, error) {
	if f.shared {
		if err := checkFile(f.path, readOnly); err != nil {
			return nil, err
		}
	}
	opts := f.opts
	opts.ReadOnly = readOnly
	var db *bolt.DB
	err := guarded(f.path, func() (err error) {
		db, err = bolt.Open(f.path, 0o600, &opts)
		return err
	})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("embedded store %s is in use by another process (lock not released within %s)", f.path, f.timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("open embedded store %s: %w", f.path, err)
	}
	return db, nil
}

// View runs fn in a read transaction, after committing the open group of
// writes if there is one, so a read sees every write that returned.
func (f *file) View(fn func(*bolt.Tx) error) error {
	fn = f.shedding(fn)
	if !f.shared {
		if f.groups() {
			// Commit the open group (no sync with NoSync: cheap) so the
			// read sees it, rather than reading inside the write
			// transaction: that would hold every other read and write
			// back, and bbolt's write transaction reads more slowly.
			f.gmu.Lock()
			err := f.commitGroup()
			f.gmu.Unlock()
			if err != nil {
				return err
			}
		}
		return guarded(f.path, func() error { return f.exclusive.View(fn) })
	}
	f.turn.RLock()
	defer f.turn.RUnlock()
	db, err := f.acquireReader()
	if err != nil {
		return err
	}
	defer f.releaseReader()
	return guarded(f.path, func() error { return db.View(fn) })
}

// faultAround is what one page fault maps of a cached file (the kernel's
// default fault_around_bytes): the shedder counts the file in windows of it.
const faultAround = 64 << 10

// shedding runs fn, then counts the meta pages every transaction reads
// and sheds the file's mapped pages when the process holds too many of
// them (see pageShedder); inside the transaction, so bbolt cannot remap
// the file meanwhile.
func (f *file) shedding(fn func(*bolt.Tx) error) func(*bolt.Tx) error {
	f.requests.Add(1)
	return func(tx *bolt.Tx) error {
		err := fn(tx)
		f.shed.touch(f.path, tx.DB().Info().Data)
		return err
	}
}

// read counts n stored bytes handed out, for Traffic.
func (f *file) read(n int) { f.bytesRead.Add(int64(n)) }

// countRead counts the values bs (bbolt's bytes, read inside a transaction
// of f that is still open) towards the shedder: the fault-around windows
// they span.
func (f *file) countRead(bs ...[]byte) {
	var buf [8]uintptr
	addrs := buf[:0]
	for _, b := range bs {
		addrs = windowsOf(addrs, b)
	}
	f.shed.touch(f.path, addrs...)
}

// countSparse is countRead for reads that take a little of each of many
// values spread over the file: the shedder keeps fewer of their pages.
func (f *file) countSparse(bs ...[]byte) {
	var buf [8]uintptr
	addrs := buf[:0]
	for _, b := range bs {
		addrs = windowsOf(addrs, b)
	}
	f.shed.touchSparse(f.path, addrs...)
}

// groupMax is the most writes that share one bbolt transaction: each
// commit rewrites the B+tree pages on its path, the freelist and the meta
// page (and syncs twice without NoSync), so a write operation of several
// backend calls, or a bulk writer's run, pays that once per group. Bounded
// so the dirty pages a group holds in memory stay a few MiB.
const groupMax = 64

// groups tells whether writes are grouped: on an exclusive read-write
// handle, the writes of one store operation share a commit (Flush ends
// it); with NoSync, unless commitEach, consecutive operations share one too
// (Sync ends it).
func (f *file) groups() bool { return !f.shared && !f.opts.ReadOnly }

// groupsAcross tells whether a group outlives Flush (see groups).
func (f *file) groupsAcross() bool { return f.opts.NoSync && !f.commitEach }

// UpdateGrouped runs fn in a write transaction that, when writes are
// grouped, it shares with up to groupMax-1 other writes; otherwise it is
// Update. fn must write at most once, as its last step: a failing fn
// then leaves nothing of its own in the group, and the other writes of the
// group stand. Grouped writes reach the file at the group's commit (Flush,
// Sync, Close, the next Update or read, or groupMax writes) and the disk
// then, or at Sync with NoSync.
func (f *file) UpdateGrouped(fn func(*bolt.Tx) error) error {
	return f.UpdateGroupedWrites(1, fn)
}

// UpdateGroupedWrites is UpdateGrouped for an fn that writes up to n
// documents (as its last steps), counted as n writes of the group so its
// dirty pages stay bounded.
func (f *file) UpdateGroupedWrites(n int, fn func(*bolt.Tx) error) error {
	if !f.groups() {
		return f.Update(fn)
	}
	fn = f.shedding(fn)
	f.gmu.Lock()
	defer f.gmu.Unlock()
	if f.failed != nil {
		return f.failed
	}
	if f.group == nil {
		var tx *bolt.Tx
		err := guarded(f.path, func() (err error) {
			tx, err = f.exclusive.Begin(true)
			return err
		})
		if err != nil {
			return err
		}
		f.group = tx
	}
	if err := guarded(f.path, func() error { return fn(f.group) }); err != nil {
		if dmg := (*damageError)(nil); errors.As(err, &dmg) {
			return f.abandonGroup(err)
		}
		return err
	}
	f.writes.Add(1)
	if f.grouped += max(n, 1); f.grouped >= groupMax {
		return f.commitGroup()
	}
	return nil
}

// abandonGroup rolls the open group back after a write met a damaged page
// part way: what it did to the group is unknown. The group's earlier
// writes are lost with it, as in a failed commit; with none, the handle
// stays usable. Callers hold gmu.
func (f *file) abandonGroup(cause error) error {
	tx, n := f.group, f.grouped
	f.group, f.grouped = nil, 0
	_ = guarded(f.path, tx.Rollback)
	if n == 0 {
		return cause
	}
	f.failed = fmt.Errorf("%w (the last %d writes before it were not stored)", cause, n)
	return f.failed
}

// commitGroup commits the open group, if any. A failed commit loses the
// group's writes, some of which may have returned success: the handle
// refuses every later write, and Flush, Sync and Close report it, so no
// operation or run that wrote through it can end reporting success.
// Callers hold gmu.
func (f *file) commitGroup() error {
	if f.failed != nil {
		return f.failed
	}
	if f.group == nil {
		return nil
	}
	tx, n := f.group, f.grouped
	f.group, f.grouped = nil, 0
	if err := guarded(f.path, tx.Commit); err != nil {
		if dmg := (*damageError)(nil); errors.As(err, &dmg) {
			_ = guarded(f.path, tx.Rollback) // a commit that panicked left it open
		}
		f.failed = fmt.Errorf("embedded store %s: the last %d writes were not stored (commit failed: %w)", f.path, n, err)
		return f.failed
	}
	f.committed.Store(f.writes.Load())
	return nil
}

// Committed reports how many write calls returned success and how many of
// them are committed: part of the file, where a killed process leaves
// them (and on disk but with NoSync, see Sync). A grouped write is
// committed with its group; a failed group commit loses writes that
// returned, which a bulk writer must not count as stored.
func (f *file) Committed() (written, committed uint64) {
	return f.writes.Load(), f.committed.Load()
}

// Flush ends a write operation: its grouped writes are committed (and, but
// with NoSync, on disk) when it returns. With NoSync and grouping across
// operations the group stays open for the next one; Sync ends it.
func (f *file) Flush() error {
	if !f.groups() {
		return nil
	}
	f.gmu.Lock()
	defer f.gmu.Unlock()
	if f.groupsAcross() {
		return f.failed
	}
	return f.commitGroup()
}

// Sync commits the open group of writes and flushes the file to disk: every
// write that returned before it survives a crash once it returns.
func (f *file) Sync() error {
	if !f.groups() {
		return nil // every commit of a shared handle was synced (NoSync aside) and closed
	}
	f.gmu.Lock()
	defer f.gmu.Unlock()
	if err := f.commitGroup(); err != nil {
		return err
	}
	if !f.opts.NoSync {
		return nil // each commit synced already
	}
	return f.exclusive.Sync()
}

// Update runs fn in a write transaction of its own (after committing an
// open group, so writes land in the order they returned).
func (f *file) Update(fn func(*bolt.Tx) error) error {
	fn = f.shedding(fn)
	if !f.shared {
		if f.groups() {
			f.gmu.Lock()
			defer f.gmu.Unlock()
			if err := f.commitGroup(); err != nil {
				return err
			}
		}
		return f.counted(guarded(f.path, func() error { return f.exclusive.Update(fn) }))
	}
	if f.opts.ReadOnly {
		return bolterrors.ErrDatabaseReadOnly
	}
	f.turn.Lock()
	defer f.turn.Unlock()
	db, err := f.open(false)
	if err != nil {
		return err
	}
	err = guarded(f.path, func() error { return db.Update(fn) })
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return f.counted(err)
}

// counted counts a write that committed on its own (Update) when err is
// nil, and returns err.
func (f *file) counted(err error) error {
	if err == nil {
		f.committed.Store(f.writes.Add(1))
	}
	return err
}

// acquireReader returns the read-only handle, opening it for the first of
// the reads running at once.
func (f *file) acquireReader() (*bolt.DB, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.reader == nil {
		db, err := f.open(true)
		if err != nil {
			return nil, err
		}
		f.reader = db
	}
	f.readers++
	return f.reader, nil
}

// releaseReader closes the read-only handle after the last read, which
// releases the shared lock.
func (f *file) releaseReader() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.readers--
	if f.readers == 0 {
		_ = f.reader.Close()
		f.reader = nil
	}
}

// Close syncs what NoSync left unsynced and releases the file; an error
// says some writes that returned may not be on disk.
func (f *file) Close() error {
	if f.shared {
		return nil
	}
	err := f.Sync()
	if cerr := f.exclusive.Close(); err == nil {
		err = cerr
	}
	return err
}

// windowsOf appends to addrs an address in each fault-around window b
// spans (its first and last byte and every faultAround between): what a
// read of b may map, for the shedder's touch. b is bbolt's bytes: in the
// file's mapping.
func windowsOf(addrs []uintptr, b []byte) []uintptr {
	if len(b) == 0 {
		return addrs
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	for off := uintptr(0); off < uintptr(len(b)); off += faultAround {
		addrs = append(addrs, start+off)
	}
	return append(addrs, start+uintptr(len(b))-1)
}
