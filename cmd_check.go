package main

import (
	"context"
	"fmt"

	"github.com/chatlens/chatlens/store"
	"github.com/chatlens/chatlens/store/check"
)

type checkCmd struct {
	Conversation string `name:"conversation" placeholder:"CID" complete:"conversations" help:"Only this conversation."`
	readStats
}

func (checkCmd) Help() string {
	return `Reports bucket invariants (doc_id and slot seqs), OpenIM's indexes (missing or different ones as
advice), seq documents and how single messages are read. Any problem makes the exit code 1.

Examples:

    chatlens check
    chatlens check --conversation si_alice_bob
    chatlens check --mongo-uri mongodb://localhost:27017 --read-only`
}

func (c *checkCmd) Run(ctx context.Context, s *session) error {
	return s.withStore(ctx, readsOrSeeds, func(st *store.Store) error {
		if err := st.CheckIDs(ctx, c.Conversation, ""); err != nil {
			return err
		}
		return c.counting(s, st, func() error { return c.check(ctx, s, st) })
	})
}

func (c *checkCmd) check(ctx context.Context, s *session, st *store.Store) error {
	step, end := progressPrinter(s.stderr, "checking "+st.Describe(), false)
	rep, err := check.Run(ctx, st, c.Conversation, step)
	end()
	if err != nil {
		return err
	}
	rep.Write(s.stdout)
	if n := rep.Problems(); n > 0 {
		return fmt.Errorf("check found %d problems", n)
	}
	return nil
}
