package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/bucket"
	"github.com/chatlens/chatlens/store/embedded"
)

// FirstRun seeds the demo into the embedded store file at path, the default
// path of a first run, so that `chatlens` with nothing installed opens on
// something worth looking at. It writes only into a file that holds nothing
// of anyone's:
//   - no file, or a file holding no document at all: seed the demo;
//   - a file holding only a demo seed that never finished (a first run that
//     was killed; any other write marks it as the user's, see Adopt): empty
//     it and seed again;
//   - any other file (a finished demo, an import, a user's data): leave it.
//
// The check and the emptying are one write transaction, so a writer in
// another process cannot slip in between. The caller never runs it under
// --read-only. seed runs the seeding itself (the caller shows progress and
// the summary); notice receives a one-line explanation when an unfinished
// demo is seeded again. begin is called once it is decided to seed, before
// the first write (the emptying included), so the caller can log its
// intent; an error from it stops FirstRun with nothing written. The file is
// written without fsync per write (seconds instead of minutes) and closed
// before FirstRun returns.
func FirstRun(ctx context.Context, path string, opts Options, notice func(string),
	begin func() error, seed func(st *store.Store, what string) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("embedded store: %w", err)
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		// The usual case, a store in use, is told under a shared lock, so
		// a first-run check never waits for or blocks other readers.
		if used, err := inUse(ctx, path); used || err != nil {
			return err
		}
	}
	b, err := embedded.Open(path, embedded.Options{NoSync: true})
	if err != nil {
		return err
	}
	unfinished := false
	var beginErr error
	cleared, err := b.ClearIf(ctx, func(counts map[string]int, read func(string) []bson.Raw) bool {
		others := 0
		for coll, n := range counts {
			if coll != MetaCollection {
				others += n
			}
		}
		progress := progressOf(read(MetaCollection))
		unfinished = progress == Started && others > 0
		if progress != Started && (others > 0 || progress != NotSeeded) {
			return false
		}
		beginErr = begin()
		return beginErr == nil
	})
	if err == nil {
		err = beginErr
	}
	if err == nil && cleared {
		if unfinished {
			notice("the demo dataset in " + path + " was never finished (an interrupted first run): seeding it again from scratch")
		}
		// The "started" marker goes first and the "complete" one last, so a
		// run killed midway is found next time.
		err = MarkStarted(ctx, b, opts.Seed)
		if err == nil {
			err = seed(store.New(b, store.Options{}), "first run: seeding the demo dataset into "+path)
		}
		if err == nil {
			err = MarkComplete(ctx, b, opts.Seed)
		}
	}
	if cerr := b.Close(ctx); err == nil {
		err = cerr
	}
	return err
}

// Occupied names the first collection chatlens knows that holds a document
// in b, "" when none does: the demo's users, conversations and seq records
// would overwrite documents with the same keys, not only its messages.
func Occupied(ctx context.Context, b store.Backend) (string, error) {
	for _, coll := range bucket.Collections {
		holds, err := store.HoldsAny(ctx, b, coll)
		if err != nil {
			return "", err
		}
		if holds {
			return coll, nil
		}
	}
	return "", nil
}

// inUse tells, reading under a shared lock, whether the store at path
// holds data of its own (anything but an unfinished demo): then FirstRun
// has nothing to do. ClearIf decides for the other cases, under the lock.
func inUse(ctx context.Context, path string) (bool, error) {
	b, err := embedded.Open(path, embedded.Options{ReadOnly: true})
	if err != nil {
		return false, err
	}
	defer b.Close(ctx)
	progress, err := SeedProgress(ctx, b)
	if err != nil || progress == Started {
		return false, err
	}
	coll, err := Occupied(ctx, b)
	return coll != "", err
}
