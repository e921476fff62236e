package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/embedded"
)

// Scratch is one store.Backend on target that no one else uses, for the
// UI's operations over a slow link (chatlens bench --latency): a new
// embedded file, or a scratch database on the MongoDB of target.MongoURI.
type Scratch struct {
	Backend  store.Backend
	Describe string
	cleanup  func() error
}

// OpenScratch opens it; Close removes what it made.
func OpenScratch(ctx context.Context, target Target) (*Scratch, error) {
	if target.MongoURI != "" {
		sd, drop, err := openScratchDatabase(ctx, target.MongoURI)
		if err != nil {
			return nil, err
		}
		return &Scratch{Backend: sd.mb, Describe: sd.mb.Describe(), cleanup: drop}, nil
	}
	dir, err := newScratchDir(target.TempDir)
	if err != nil {
		return nil, fmt.Errorf("bench: scratch directory: %w", err)
	}
	eb, err := embedded.Open(filepath.Join(dir, "ui.db"), embedded.Options{NoSync: target.NoSync})
	if err != nil {
		return nil, errors.Join(err, os.RemoveAll(dir))
	}
	return &Scratch{Backend: eb, Describe: "embedded (scratch bbolt file)", cleanup: func() error {
		return errors.Join(eb.Close(context.Background()), os.RemoveAll(dir))
	}}, nil
}

// Close removes the scratch store.
func (s *Scratch) Close() error { return s.cleanup() }
