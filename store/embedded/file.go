package embedded

import (
	"errors"
	"fmt"
	"sync"
	"time"

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

	exclusive *bolt.DB // the handle of an exclusive file

	turn    sync.RWMutex // shared: reads of this process run together, a write alone
	mu      sync.Mutex   // guards reader and readers
	reader  *bolt.DB
	readers int
}

// openFile opens path the way opts say and, when not shared, keeps it open.
func openFile(path string, opts bolt.Options, shared bool) (*file, error) {
	f := &file{path: path, opts: opts, timeout: opts.Timeout, shared: shared}
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

// open opens one handle, waiting for the lock another process holds.
func (f *file) open(readOnly bool) (*bolt.DB, error) {
	opts := f.opts
	opts.ReadOnly = readOnly
	db, err := bolt.Open(f.path, 0o600, &opts)
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("embedded store %s is in use by another process (lock not released within %s)", f.path, f.timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("open embedded store %s: %w", f.path, err)
	}
	return db, nil
}

// View runs fn in a read transaction.
func (f *file) View(fn func(*bolt.Tx) error) error {
	if !f.shared {
		return f.exclusive.View(fn)
	}
	f.turn.RLock()
	defer f.turn.RUnlock()
	db, err := f.acquireReader()
	if err != nil {
		return err
	}
	defer f.releaseReader()
	return db.View(fn)
}

// Update runs fn in a write transaction.
func (f *file) Update(fn func(*bolt.Tx) error) error {
	if !f.shared {
		return f.exclusive.Update(fn)
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
	err = db.Update(fn)
	if cerr := db.Close(); err == nil {
		err = cerr
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

// Close releases the file.
func (f *file) Close() error {
	if !f.shared {
		return f.exclusive.Close()
	}
	return nil
}
