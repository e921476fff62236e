package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/demo"
)

type seedCmd struct {
	Conversations int   `name:"conversations" default:"${demo_conversations}" help:"Ordinary conversations."`
	Messages      int   `name:"messages" default:"${demo_messages}" help:"Messages per ordinary conversation."`
	Long          int   `name:"long" default:"${demo_long}" help:"Messages of the long group (0: none)."`
	Seed          int64 `name:"seed" default:"1" help:"Random seed; the same seed writes the same documents."`
	Force         bool  `name:"force" help:"Seed even though the store holds messages."`
	readStats
}

func (seedCmd) Help() string {
	return `Writes the demo dataset: showcase chats with every feature (revokes, deletes, quotes, holes,
cleared history), ordinary conversations and one long group. A store holding messages is refused
unless --force.

Examples:

    chatlens seed
    chatlens seed --data /tmp/small.db --conversations 4 --messages 120 --long 250 --seed 3
    chatlens seed --mongo-uri mongodb://localhost:27017 --db scratch --force`
}

func (c *seedCmd) Validate() error {
	switch {
	case c.Conversations < 0 || c.Messages < 0 || c.Long < 0:
		return fmt.Errorf("sizes cannot be negative")
	case c.Conversations > demo.MaxConversations:
		return fmt.Errorf("--conversations is at most %d", demo.MaxConversations)
	case c.Messages > demo.MaxMessages || c.Long > demo.MaxMessages ||
		c.Conversations*c.Messages+c.Long > demo.MaxMessages: // each at most 2e6: no overflow
		return fmt.Errorf("--conversations × --messages + --long is at most %d messages", demo.MaxMessages)
	}
	return nil
}

func (c *seedCmd) Run(ctx context.Context, s *session) error {
	action := seedAction(c.Seed)
	s.attempt = &store.AuditEntry{Action: action}
	return s.withStore(ctx, storeUse{writes: true}, func(st *store.Store) error {
		if err := s.refuseReadOnly("seed"); err != nil {
			return err
		}
		if coll, err := demo.Occupied(ctx, st.Backend()); err != nil {
			s.notStarted(err)
			return err
		} else if coll != "" && !c.Force {
			err := fmt.Errorf("seed: the store already holds %s documents; --force seeds anyway (demo documents with the same keys are overwritten)", coll)
			s.refuseRaw(action, err)
			return err
		}
		outcome, err := s.startRaw(ctx, action)
		if err != nil {
			return err
		}
		long := c.Long
		if long == 0 {
			long = -1 // demo.Options: negative means no long group
		}
		opts := demo.Options{Seed: c.Seed, Conversations: c.Conversations, Messages: c.Messages, LongMessages: long}
		if s.conn.MongoURI != "" {
			// A round trip away: many conversations' documents a request.
			opts.BulkBytes = seedBulkBytes
		}
		return c.counting(s, st, func() error {
			err := s.seed(ctx, st, opts, "seeding "+st.Describe())
			outcome(err, seedStored(err))
			return err
		})
	})
}

// seedBulkBytes bounds the documents a seed into MongoDB gathers before it
// sends them (a few requests, each at most mongostore.RawBatch documents):
// memory stays a few MiB.
const seedBulkBytes = 4 << 20

// seedAction names a seed in the audit log, the command's and a first run's.
func seedAction(seed int64) string { return "seed " + strconv.FormatInt(seed, 10) }

// seedStored tells whether a seed that failed with err stored messages.
func seedStored(err error) bool {
	var stopped *demo.StoppedError
	return errors.As(err, &stopped) && stopped.Stored > 0
}
