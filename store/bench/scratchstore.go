package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/embedded"
	"github.com/chatlens/chatlens/store/mongostore"
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
		name, err := scratchName()
		if err != nil {
			return nil, err
		}
		mb, err := mongostore.Open(ctx, target.MongoURI, name, mongostore.Options{})
		if err != nil {
			return nil, err
		}
		client, err := mongo.Connect(options.Client().ApplyURI(target.MongoURI))
		if err != nil {
			_ = mb.Close(context.Background())
			return nil, fmt.Errorf("bench: %s: %w", mb.Describe(), err)
		}
		drop := func() error {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
			defer cancel()
			var derr error
			if err := client.Database(name).Drop(cctx); err != nil {
				derr = fmt.Errorf("bench: scratch database %s was not dropped, drop it by hand: %w", name, err)
			}
			return errors.Join(derr, mb.Close(cctx), client.Disconnect(cctx))
		}
		return &Scratch{Backend: mb, Describe: mb.Describe(), cleanup: drop}, nil
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
