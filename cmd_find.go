package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

type findCmd struct {
	ClientMsgID string `name:"client-msg-id" placeholder:"ID" help:"The message's client_msg_id."`
	ServerMsgID string `name:"server-msg-id" placeholder:"ID" help:"The message's server_msg_id."`
	readStats
}

func (findCmd) Help() string {
	return `Prints every slot holding the message: conversation, seq, bucket and slot. Without an index on
the field it says how many buckets the scan reads first (check suggests the index); Ctrl-C stops it.

Examples:

    chatlens find --client-msg-id 5f0c8d1e2a3b4c5d
    chatlens find --server-msg-id 9a8b7c6d5e4f`
}

func (c *findCmd) Validate() error {
	if (c.ClientMsgID == "") == (c.ServerMsgID == "") {
		return errors.New("give exactly one of --client-msg-id or --server-msg-id")
	}
	return nil
}

func (c *findCmd) Run(ctx context.Context, s *session) error {
	return s.withStore(ctx, reads, func(st *store.Store) error {
		return c.counting(s, st, func() error { return c.find(ctx, s, st) })
	})
}

// find prints every slot holding the message asked for, one a line. With
// no index on the field it says how many buckets the scan reads before it
// starts; Ctrl-C stops it between conversations.
func (c *findCmd) find(ctx context.Context, s *session, st *store.Store) error {
	field, value := store.FieldClientMsgID, c.ClientMsgID
	if c.ServerMsgID != "" {
		field, value = store.FieldServerMsgID, c.ServerMsgID
	}
	step, end := func(int, int) {}, func() {}
	found, _, err := st.FindMessage(ctx, field, value, store.FindOptions{
		Plan: func(p store.FindPlan) {
			if p.Index == "" {
				step, end = progressPrinter(s.stderr, findPlanLine(field, p), true)
			}
		},
		Progress: func(done, total int) { step(done, total) },
	})
	end()
	if err != nil {
		return fmt.Errorf("find: %w", err)
	}
	if len(found) == 0 {
		return fmt.Errorf("find: no stored message has %s %s", field, projection.SingleLine(value))
	}
	for _, f := range found {
		fmt.Fprintf(s.stdout, "%s  seq %d  bucket %s slot %d\n", projection.SingleLine(f.ConversationID), f.Seq,
			projection.SingleLine(f.DocID), f.Slot)
	}
	return nil
}

// findPlanLine says what a find without an index will read.
func findPlanLine(field string, p store.FindPlan) string {
	return fmt.Sprintf("no index on msgs.msg.%s: scanning %d buckets in %d conversations (check suggests the index)",
		field, p.Buckets, p.Conversations)
}
