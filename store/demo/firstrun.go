package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/embedded"
)

// FirstRun makes sure the embedded store file at path holds data, so that
// `chatlens` with nothing installed opens on something worth looking at:
//   - no file, or a file holding no messages: seed the demo;
//   - a file whose demo seed never finished (a first run that was killed):
//     remove it and seed again;
//   - any other file (a finished demo, an import, a user's data): leave it.
//
// seed runs the seeding itself (the caller shows progress and the summary).
// notice receives a one-line explanation when a file is replaced. The file
// is written without fsync per write (seconds instead of minutes) and closed
// before FirstRun returns.
func FirstRun(ctx context.Context, path string, opts Options, notice func(string),
	seed func(st *store.Store, what string) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("embedded store: %w", err)
	}
	_, statErr := os.Stat(path)
	fresh := statErr != nil
	if !fresh {
		empty, progress, err := state(ctx, path)
		switch {
		case err != nil:
			return err
		case progress == Started:
			// Only a store chatlens created for the demo carries the
			// "started" marker: imported or user data is never replaced.
			notice("the demo dataset in " + path + " was never finished (an interrupted first run): seeding it again from scratch")
			if err := os.Remove(path); err != nil {
				return fmt.Errorf("embedded store: %w", err)
			}
			fresh = true
		case !empty:
			return nil
		}
	}
	b, err := embedded.Open(path, embedded.Options{NoSync: true})
	if err != nil {
		return err
	}
	// A store created here gets the "started" marker first and the
	// "complete" one last, so a run killed midway is found next time.
	if fresh {
		err = MarkStarted(ctx, b, opts.Seed)
	}
	if err == nil {
		err = seed(store.New(b, store.Options{}), "first run: seeding the demo dataset into "+path)
	}
	if err == nil && fresh {
		err = MarkComplete(ctx, b, opts.Seed)
	}
	if cerr := b.Close(ctx); err == nil {
		err = cerr
	}
	return err
}

// state tells whether the store at path holds no messages, and how far a
// demo seed recorded in it got.
func state(ctx context.Context, path string) (empty bool, progress Progress, err error) {
	b, err := embedded.Open(path, embedded.Options{ReadOnly: true})
	if err != nil {
		return false, NotSeeded, err
	}
	defer b.Close(ctx)
	if empty, err = store.IsEmpty(ctx, b); err != nil {
		return empty, NotSeeded, err
	}
	progress, err = SeedProgress(ctx, b)
	return empty, progress, err
}
