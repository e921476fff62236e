package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chatlens/chatlens/projection"
	"github.com/chatlens/chatlens/store"
)

type findCmd struct {
	ClientMsgID  string `name:"client-msg-id" placeholder:"ID" help:"The message's client_msg_id."`
	ServerMsgID  string `name:"server-msg-id" placeholder:"ID" help:"The message's server_msg_id."`
	As           string `name:"as" placeholder:"USER" complete:"users" help:"Only the conversations this user owns a document of."`
	Conversation string `name:"conversation" placeholder:"CID" complete:"conversations" help:"Only this conversation."`
	Since        string `name:"since" placeholder:"DATE" help:"Newest buckets first, stopping at the first older than DATE (2024-01-08, 2024-01-08 15:04)."`
	All          bool   `name:"all" help:"Every slot holding the message; otherwise the search stops at the first hit."`
	readStats
}

func (findCmd) Help() string {
	return `Prints the slot holding the message (with --all, every one): conversation, seq, bucket and slot.
Without an index on the field it says how many buckets the scan reads first (check suggests the
index); Ctrl-C stops it. A ticket names a user and a rough time: --as, --conversation and --since
search only those buckets, newest first, a few hundred a query by doc_id.

Examples:

    chatlens find --client-msg-id 5f0c8d1e2a3b4c5d
    chatlens find --client-msg-id 5f0c8d1e2a3b4c5d --as alice --since 2024-01-08
    chatlens find --server-msg-id 9a8b7c6d5e4f --conversation sg_phoenix --all`
}

func (c *findCmd) Validate() error {
	if (c.ClientMsgID == "") == (c.ServerMsgID == "") {
		return errors.New("give exactly one of --client-msg-id or --server-msg-id")
	}
	if c.Since != "" {
		if _, ok := parseSince(c.Since, time.UTC); !ok {
			return fmt.Errorf("--since %q is not a date (2024-01-08, 2024-01-08 15:04, 2024-01-08 15:04:05)", c.Since)
		}
	}
	return nil
}

// parseSince reads --since as a moment typed (store.ParseTypedTime), in
// the zone times are shown in.
func parseSince(s string, loc *time.Location) (time.Time, bool) {
	t, _, ok := store.ParseTypedTime(s, loc)
	return t, ok
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
	scope := store.FindScope{As: c.As, Conversation: c.Conversation, All: c.All}
	if c.Since != "" {
		scope.Since, _ = parseSince(c.Since, s.zone())
	}
	found, err := c.search(ctx, s, st, field, value, scope)
	if err != nil {
		return err
	}
	if len(found) == 0 {
		return c.notFound(ctx, s, st, field, value, scope)
	}
	for _, f := range found {
		fmt.Fprintf(s.stdout, "%s  seq %d  bucket %s slot %d\n", projection.SingleLine(f.ConversationID), f.Seq,
			projection.SingleLine(f.DocID), f.Slot)
	}
	return nil
}

// search finds the slots of scope holding the message, saying first what
// a find without an index will read, and how far it is.
func (c *findCmd) search(ctx context.Context, s *session, st *store.Store, field, value string, scope store.FindScope) ([]store.Found, error) {
	step, end := func(int, int) {}, func() {}
	found, _, err := st.FindMessage(ctx, field, value, store.FindOptions{
		Plan: func(p store.FindPlan) {
			if p.Index == "" {
				step, end = progressPrinter(s.stderr, findPlanLine(field, p, scope), true)
			} else if p.EveryShard {
				fmt.Fprintf(s.stderr, "chatlens: msg is sharded on {%s}: the lookup by %s carries no shard key and goes to every shard\n",
					p.ShardKey, field)
			}
		},
		Progress: func(done, total int) { step(done, total) },
		Scope:    scope,
	})
	end()
	if err != nil {
		return nil, fmt.Errorf("find: %w", err)
	}
	return found, nil
}

// notFound says why a find found nothing. When a scope narrowed it and
// the message is stored outside it, the line says where, and with --as why
// that user has none of it (no conversation document, outside their
// window): never that no stored message has the ID.
func (c *findCmd) notFound(ctx context.Context, s *session, st *store.Store, field, value string, scope store.FindScope) error {
	none := fmt.Errorf("find: no stored message has %s %s", field, projection.SingleLine(value))
	if scope.As == "" && scope.Conversation == "" && scope.Since.IsZero() {
		return none
	}
	found, err := c.search(ctx, s, st, field, value, store.FindScope{})
	if err != nil || len(found) == 0 {
		return cmp.Or(err, none)
	}
	f := found[0]
	where := fmt.Sprintf("%s %s is stored in %s seq %d (bucket %s slot %d)", field, projection.SingleLine(value),
		projection.SingleLine(f.ConversationID), f.Seq, projection.SingleLine(f.DocID), f.Slot)
	if scope.As == "" {
		return fmt.Errorf("find: none in the scope given; %s", where)
	}
	ws, err := st.Windows(ctx, scope.As, []string{f.ConversationID}, nil)
	if err != nil {
		return err
	}
	w, who := ws[f.ConversationID], projection.SingleLine(scope.As)
	var why string
	switch {
	case w.PulledNothing():
		why = w.UnpulledReason(who)
	case f.Seq < max(1, w.MinSeq) || f.Seq > w.MaxSeq:
		why = fmt.Sprintf("seq %d is outside %s's window of it (seq %d-%d)", f.Seq, who, max(1, w.MinSeq), w.MaxSeq)
	default:
		return fmt.Errorf("find: none in the scope given; %s, in %s's window", where, who)
	}
	return fmt.Errorf("find: %s has none of it: %s; %s", who, why, where)
}

// findPlanLine says what a find without an index will read, and where
// msg is sharded, whether every shard answers.
func findPlanLine(field string, p store.FindPlan, scope store.FindScope) string {
	line := fmt.Sprintf("no index on msgs.msg.%s: scanning %d buckets in %d conversations (check suggests the index)",
		field, p.Buckets, p.Conversations)
	if p.Scoped {
		line = fmt.Sprintf("no index on msgs.msg.%s: scanning at most %d buckets of %d conversations%s, newest first, %d a query by doc_id (check suggests the index)",
			field, p.Buckets, p.Conversations, scopeWords(scope), store.FindScanBatch)
	}
	if !scope.All {
		line += "; stopping at the first hit"
	}
	switch {
	case p.ShardKey == "":
	case p.EveryShard:
		line += fmt.Sprintf("; msg is sharded on {%s}: each query goes to every shard", p.ShardKey)
	default:
		line += fmt.Sprintf("; msg is sharded on {%s}: each query goes to the shards holding its buckets", p.ShardKey)
	}
	return line
}

// scopeWords says what a scope names, for the plan line.
func scopeWords(f store.FindScope) string {
	var w string
	switch {
	case f.Conversation != "":
		w = " (" + projection.SingleLine(f.Conversation) + ")"
	case f.As != "":
		w = " (" + projection.SingleLine(f.As) + "'s)"
	}
	if !f.Since.IsZero() {
		w += ", until the first older than " + f.Since.Format("2006-01-02 15:04")
	}
	return w
}
