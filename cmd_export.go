package main

import (
	"context"
	"fmt"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/transfer"
)

type exportCmd struct {
	Collection    string `name:"collection" default:"${coll_msg}" complete:"collections" help:"Collection to write."`
	AnyCollection bool   `name:"any-collection" help:"Take a --collection that is none of OpenIM's."`
	Conversation  string `name:"conversation" placeholder:"CID" complete:"conversations" help:"Only this conversation."`
	readStats
}

func (exportCmd) Help() string {
	return `Writes canonical Extended JSON, one document a line, as mongoexport does: what import reads back.

Examples:

    chatlens export > msg.json
    chatlens export --collection seq
    chatlens export --conversation si_alice_bob`
}

// Validate refuses a mistyped collection before any store is opened.
func (c *exportCmd) Validate() error { return knownCollection(c.Collection, c.AnyCollection) }

func (c *exportCmd) Run(ctx context.Context, s *session) error {
	return s.withStore(ctx, readsOrSeeds, func(st *store.Store) error {
		if err := st.CheckIDs(ctx, c.Conversation, ""); err != nil {
			return err
		}
		return c.counting(s, st, func() error {
			_, err := transfer.Export(ctx, st.Backend(), c.Collection, c.Conversation, s.stdout, func(b transfer.Broken) {
				fmt.Fprintln(s.stderr, "chatlens: warning: "+oneLine(fmt.Sprintf(
					"%s, %s: exported as stored, but it breaks the bucket contract: %s", b.Where, b.Key, b.Why)))
			})
			return err
		})
	})
}
